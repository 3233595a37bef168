public import JunctionCore
public import JunctionLua
public import Logging

/// Opens anything by URL: pages, tasks, whole schemes handed to another stack — under the
/// routes and rules of the loaded bundle, with a model of the page stack and results
/// delivered to openers exactly once.
///
/// ```swift
/// let router = try Router(bundle: RuleBundle.load(directory: "rules/example"))
/// router.register(page: "ProfilePage") { request in ProfilePage(id: request.params.int("id")!) }
/// router.register(task: "share") { request in ShareSheet.share(request.params.string("text")) }
/// router.register(dispatcher: "https") { handOver in .page(WebPage(url: handOver.url)) }
///
/// await router.open("myapp://user/42") { result in print(result) }   // pushed; result when removed
/// router.back()                                                       // "cancelled" is printed
/// ```
///
/// The router is main-actor isolated: it drives UI. Decisions (rules included) run off
/// the main actor in `open` and `invoke` (`async`); the page stack changes only on the
/// main actor, so registrations, opens and backs from any task never race.
@MainActor
public final class Router {
    /// Shows the page stack's changes.
    public let presenter: any Presenter
    /// What rules read as `ctx`. Replace it when the app state changes (a login); keep
    /// it while nothing changes, so it is converted for Lua once.
    public var context: ContextSnapshot
    /// The policy the router decides under: each open, invoke and tab reads its current
    /// snapshot once and decides under it, so a swap affects only what starts after it.
    public let policy: ActivePolicy
    /// The decider of the current snapshot: its routes, bundle and Swift interceptors.
    public var decider: Decider { policy.current.decider }
    /// The app's version, as the decider options give it: bundles for newer apps are
    /// refused (``BundleError/hostTooOld``). `nil` when no version was given.
    public var hostVersion: SemanticVersion? { decider.options.hostVersion }
    /// Logs failures of targets (label `junction.router`).
    public var logger: Logger

    // MARK: Hooks

    /// Called before each `open` and `invoke` is decided.
    public var willOpen: (@MainActor (RouteRequest) -> Void)?
    /// Called with every decision and its trace: analytics for every route without
    /// touching call sites.
    public var decisionObserver: (@MainActor (Decision) -> Void)?
    /// Called after each `open` with what it did.
    public var didOpen: (@MainActor (RouteRequest, Opening) -> Void)?
    /// Called for every page that leaves the stack — popped, dismissed, replaced, reset,
    /// or removed by the screen itself — after its openers got its result, top first:
    /// screen tracking that sees every removal.
    public var didClose: (@MainActor (ClosedPage) -> Void)?
    /// Called for a URL that nothing took — no route, bundle fallback or dispatcher —
    /// with its decision; returns a URL to open instead (a "not found" page), or `nil`
    /// to let the opener get `unmatched`. Called at most once per request; the URL it
    /// names is opened with the original request's source, parameters and options.
    public var undefinedRouteHandler: (@MainActor (Decision) -> String?)?

    // MARK: State

    var stack = PageStack()
    /// The presenter's transitions, one at a time, and the screen they have made.
    let transitions: TransitionQueue
    /// Opens carried out in the order they were made.
    let openTurns = OpenTurns()
    private var nextPageNumber = 1
    var pageFactories: [String: @MainActor (PageRequest) throws -> Any] = [:]
    var tasks: [String: TaskBody] = [:]
    var dispatchers: [String: @MainActor (HandOver) throws -> HandOver.Outcome] = [:]
    /// The async interceptors, highest priority first.
    var asyncInterceptors: [RegisteredAsyncInterceptor] = []
    /// Opens waiting for ``ready()``.
    var held = HeldOpens()
    /// Pages on other stacks whose openers wait for their results, oldest first.
    var pagesAwaitingResult: [PageElsewhere] = []
    /// Requests resumed after a gate, still running.
    private var resumptions: [Int: Task<Void, Never>] = [:]
    private var nextResumption = 0

    /// A router for a route table, with Swift interceptors only.
    /// - Parameters:
    ///   - routes: The route table.
    ///   - presenter: Shows the stack; a ``HeadlessPresenter`` by default.
    ///   - context: The initial context.
    ///   - options: Bounds on decisions.
    /// - Throws: `BundleError` when the decider cannot be built.
    public convenience init(
        routes: RouteTable, presenter: any Presenter = HeadlessPresenter(), context: ContextSnapshot = .empty,
        options: DeciderOptions = DeciderOptions()
    ) throws(BundleError) {
        let snapshot = PolicySnapshot(decider: try Decider(routes: routes, options: options), origin: .app)
        self.init(policy: ActivePolicy(snapshot), presenter: presenter, context: context)
    }

    /// A router for a bundle's routes and rules.
    /// - Parameters:
    ///   - bundle: The loaded bundle.
    ///   - presenter: Shows the stack; a ``HeadlessPresenter`` by default.
    ///   - context: The initial context.
    ///   - options: Bounds on decisions.
    /// - Throws: `BundleError` when a declared pattern does not compile.
    public convenience init(
        bundle: RuleBundle, presenter: any Presenter = HeadlessPresenter(), context: ContextSnapshot = .empty,
        options: DeciderOptions = DeciderOptions()
    ) throws(BundleError) {
        let snapshot = PolicySnapshot(decider: try Decider(bundle: bundle, options: options), origin: .app)
        self.init(policy: ActivePolicy(snapshot), presenter: presenter, context: context)
    }

    /// A router that decides under a policy shared with others — the update installer, which
    /// swaps in each bundle it accepts. The snapshots carry the Swift interceptors and
    /// options: give the app's to whoever builds them (the installer's acceptance policy).
    /// - Parameters:
    ///   - policy: The policy to decide under.
    ///   - presenter: Shows the stack; a ``HeadlessPresenter`` by default.
    ///   - context: The initial context.
    public init(policy: ActivePolicy, presenter: any Presenter = HeadlessPresenter(), context: ContextSnapshot = .empty)
    {
        self.policy = policy
        self.presenter = presenter
        transitions = TransitionQueue(presenter: presenter)
        self.context = context
        logger = Logger(label: "junction.router")
    }

    // MARK: - Loading

    /// Replaces the route table (and drops the bundle's rules), keeping the current Swift
    /// interceptors, options and routes registered in code: a new snapshot swapped into
    /// ``policy``. Requests already being decided finish under the old table. To add routes
    /// beside the bundle's rules instead, add them in code (``add(routes:)``).
    /// - Parameter routes: The new table.
    /// - Throws: `BundleError` when an interceptor's pattern does not compile against it;
    ///   the old table stays.
    public func load(routes: RouteTable) throws(BundleError) {
        let loaded = try policy.update { current throws(BundleError) in
            let old = current.decider
            return PolicySnapshot(
                decider: try Decider(
                    routes: routes, interceptors: old.interceptors, appRoutes: old.appRoutes, options: old.options),
                origin: .app)
        }
        warnOfSetAsideRoutes(loaded)
    }

    /// Replaces the bundle — its routes and rules at once — keeping the current Swift
    /// interceptors, options and routes registered in code: a new snapshot swapped into
    /// ``policy``. Requests already being decided finish under the old one.
    /// - Parameter bundle: The new bundle.
    ///   Code routes its routes override are set aside (``Decider/setAsideRoutes``), with a
    ///   warning in the log.
    /// - Throws: `BundleError` when a pattern does not compile; the old bundle stays.
    public func load(bundle: RuleBundle) throws(BundleError) {
        let loaded = try policy.update { current throws(BundleError) in
            let old = current.decider
            return PolicySnapshot(
                decider: try Decider(
                    bundle: bundle, interceptors: old.interceptors, appRoutes: old.appRoutes, options: old.options),
                origin: .app)
        }
        warnOfSetAsideRoutes(loaded)
    }

    /// Logs the code routes a table just swapped in overrides, if any.
    private func warnOfSetAsideRoutes(_ snapshot: PolicySnapshot) {
        if let warning = SetAsideRoute.warning(snapshot.decider.setAsideRoutes, after: snapshot.description) {
            logger.warning("\(warning)")
        }
    }

    /// Adds a Swift interceptor, run in order with the bundle's rules, to the app's layer
    /// (``AppRoutes/interceptors``): the current snapshot is rebuilt with it and swapped in,
    /// and every later one keeps it — a bundle the router loads or one an installer
    /// activates — as code routes and async interceptors are kept. (An acceptance policy's
    /// interceptors also run in the self-tests' and invariants' checks; these do not.)
    /// - Parameter interceptor: The interceptor; its name must be new.
    /// - Throws: `BundleError` when its pattern does not compile or its name is taken;
    ///   nothing changes then.
    public func add(_ interceptor: SwiftInterceptor) throws(BundleError) {
        try policy.updateAppRoutes { current, layer throws(BundleError) in
            var changed = layer
            guard !current.decider.interceptors.contains(where: { $0.name == interceptor.name }),
                changed.addInterceptor(interceptor)
            else {
                throw BundleError([
                    Diagnostic(
                        .error, "a Swift interceptor named \"\(interceptor.name)\" is already added; remove it first")
                ])
            }
            return try current.with(appRoutes: changed)
        }
    }

    /// Removes the Swift interceptor named `name`: one the app added (from the layer every
    /// snapshot keeps), or else one the snapshot in force was made with.
    /// - Parameter name: Its name.
    /// - Returns: Whether there was one.
    @discardableResult
    public func removeInterceptor(named name: String) -> Bool {
        if policy.appRoutes.interceptors.contains(where: { $0.name == name }) {
            var removed = false
            // The layer without one of its interceptors compiled before, so this cannot fail.
            _ = try? policy.updateAppRoutes { current, layer throws(BundleError) in
                var changed = layer
                removed = changed.removeInterceptor(named: name) != nil
                return try current.with(appRoutes: changed)
            }
            return removed
        }
        guard decider.interceptors.contains(where: { $0.name == name }) else { return false }
        var removed = false
        // The remaining interceptors compiled before, so this cannot fail.
        try? rebuild { interceptors in
            removed = interceptors.contains { $0.name == name }
            return interceptors.filter { $0.name != name }
        }
        return removed
    }

    /// Swaps in the current snapshot's bundle (or table) with the interceptors `change`
    /// makes from its own; the snapshot keeps its origin and identity.
    private func rebuild(_ change: ([SwiftInterceptor]) throws(BundleError) -> [SwiftInterceptor])
        throws(BundleError)
    {
        try policy.update { current throws(BundleError) in
            let decider = try current.decider.with(interceptors: try change(current.decider.interceptors))
            return PolicySnapshot(decider: decider, origin: current.origin, identity: current.identity)
        }
    }

    // MARK: - Registration

    /// Registers the page factory for a route target (`target:` in routes.yaml, the
    /// route's name by default), replacing any earlier one.
    /// - Parameters:
    ///   - target: The target's name.
    ///   - factory: Makes the page; a throw reaches the opener as ``RouterError/Code/targetFailed``.
    public func register(page target: String, _ factory: @escaping @MainActor (PageRequest) throws -> Any) {
        pageFactories[target] = factory
    }

    /// Registers a synchronous task for a route target, replacing any earlier one. It
    /// answers both `invoke` variants and `open`.
    /// - Parameters:
    ///   - target: The target's name.
    ///   - body: The task; runs on the caller's actor.
    public func register(task target: String, _ body: @escaping @Sendable (TaskRequest) throws -> (any Sendable)?) {
        tasks[target] = .sync(body)
    }

    /// Registers an asynchronous task for a route target, replacing any earlier one. It
    /// answers `invoke` (`async`) and `open`; the synchronous `invoke` refuses it.
    /// - Parameters:
    ///   - target: The target's name.
    ///   - body: The task; runs off the main actor.
    public func register(
        asyncTask target: String, _ body: @escaping @Sendable (TaskRequest) async throws -> (any Sendable)?
    ) {
        tasks[target] = .async(body)
    }

    /// Registers the dispatcher for a whole scheme (`https`, `flutter`, `wxmp`, `tp`),
    /// replacing any earlier one. URLs of that scheme that no route takes go to it, as do
    /// URLs the route table lists in `dispatchedSchemes` and rules' redirects to them.
    /// - Parameters:
    ///   - scheme: The scheme, in any case.
    ///   - dispatcher: Opens the URL; returns a page for the stack or handles it elsewhere.
    public func register(
        dispatcher scheme: String, _ dispatcher: @escaping @MainActor (HandOver) throws -> HandOver.Outcome
    ) {
        dispatchers[scheme.lowercased()] = dispatcher
    }

    /// Removes a page factory.
    /// - Parameter target: The target's name.
    /// - Returns: Whether one was registered.
    @discardableResult
    public func removePage(_ target: String) -> Bool { pageFactories.removeValue(forKey: target) != nil }

    /// Removes a task.
    /// - Parameter target: The target's name.
    /// - Returns: Whether one was registered.
    @discardableResult
    public func removeTask(_ target: String) -> Bool { tasks.removeValue(forKey: target) != nil }

    /// Removes a dispatcher.
    /// - Parameter scheme: The scheme.
    /// - Returns: Whether one was registered.
    @discardableResult
    public func removeDispatcher(_ scheme: String) -> Bool {
        dispatchers.removeValue(forKey: scheme.lowercased()) != nil
    }

    /// Whether a target has a page factory or task registered.
    /// - Parameter target: The target's name.
    public func isRegistered(_ target: String) -> Bool { pageFactories[target] != nil || tasks[target] != nil }

    // MARK: - Internals shared by the extensions

    func makePageID() -> PageID {
        defer { nextPageNumber += 1 }
        return PageID(nextPageNumber)
    }

    /// Runs `work` as a tracked task, so ``settle()`` can wait for it.
    func track(_ work: @escaping @MainActor () async -> Void) {
        let key = nextResumption
        nextResumption += 1
        resumptions[key] = Task { @MainActor in
            await work()
            self.resumptions[key] = nil
        }
    }

    /// Waits until every request resumed after a gate (and anything it started) is done.
    /// Tests, the demo and scripted sessions call it after finishing a gate's page.
    public func settle() async {
        while let (_, task) = resumptions.first {
            await task.value
        }
    }
}
