public import JunctionCore
public import JunctionLua

/// The pure heart of Junction: `decide(request, context) → Decision`.
///
/// For one request it runs, in order: parse → the bundle's declared redirects (at most
/// ``DeciderOptions/maximumRedirects`` hops; a loop is refused, naming the cycle) →
/// match → for an unmatched URL, a dispatcher for its scheme, else the fallback rules,
/// else `unmatched` → the access check (a route not `exported` opens only from
/// `internal` sources) → interceptors: global ones by priority, the policies of the
/// route's groups, then the route's own by priority — Lua rules and Swift closures alike.
///
/// It touches no page stack and has no side effects, so the CLI can run millions of URLs
/// and tests can be tables. Every decision carries a trace of its steps.
///
/// ```swift
/// let bundle = try RuleBundle.load(directory: "rules/example")
/// let decider = try Decider(bundle: bundle)
/// let decision = decider.decide(RouteRequest("myapp://moments/7", source: .push),
///                               context: ContextSnapshot(["user": nil]))
/// // decision.outcome == .gate(url: "myapp://login", resume: true)
/// ```
///
/// A rule that fails — an error, a budget exceeded, a result that is not a verdict — is
/// recorded in the trace and its `on_error` applies: the interceptor's own, else the
/// bundle manifest's, which defaults to `reject` (a broken login gate must not let people
/// through). Swift interceptors that throw follow their own ``SwiftInterceptor/onError``.
public final class Decider: Sendable {
    /// The route table it matches with: the bundle's (or the one given), with the app's
    /// code routes and group memberships (``appRoutes``) laid over it.
    public let routes: RouteTable
    /// The app's layer over the table: routes registered and group memberships set in code.
    public let appRoutes: AppRoutes
    /// The code routes of ``appRoutes`` that the table overrides (the same name, or a pattern
    /// for the same URLs): the table's route wins while this decider is in force.
    public let setAsideRoutes: [SetAsideRoute]
    /// The table before the app's layer: the bundle's, or the one given.
    let baseRoutes: RouteTable
    /// The bundle whose rules run, if any.
    public let bundle: RuleBundle?
    /// The bounds.
    public let options: DeciderOptions
    /// The app's Swift interceptors it runs beside the bundle's rules: what a decider for
    /// another bundle needs to keep the app's behaviour (see ``PolicySnapshot``).
    public let interceptors: [SwiftInterceptor]
    package let redirects: RedirectRules
    package let plan: InterceptorPlan
    package let fallbacks: [PolicyStep]
    let engines: RuleEnginePool?
    let bundleLabel: String?

    /// A decider for a bundle's routes and rules, with Swift interceptors beside them.
    /// - Parameters:
    ///   - bundle: The loaded bundle.
    ///   - interceptors: Swift interceptors, run in the same order as the rules.
    ///   - appRoutes: Routes and group memberships the app sets in code, laid over the
    ///     bundle's table; the bundle's routes win clashes (``setAsideRoutes``).
    ///   - options: The bounds, and the app's version.
    /// - Throws: `BundleError` for a declared redirect or interceptor pattern that does
    ///   not compile, at its `file:line`; with ``BundleError/hostTooOld`` set when the
    ///   manifest's `minimum_host_version` is above ``DeciderOptions/hostVersion``.
    public convenience init(
        bundle: RuleBundle, interceptors: [SwiftInterceptor] = [], appRoutes: AppRoutes = AppRoutes(),
        options: DeciderOptions = DeciderOptions()
    ) throws(BundleError) {
        if let refusal = Self.hostVersionRefusal(
            bundle.manifest, directory: bundle.directory, host: options.hostVersion)
        {
            throw refusal
        }
        try self.init(
            routes: bundle.routes, bundle: bundle, interceptors: interceptors, appRoutes: appRoutes, options: options)
    }

    /// ``init(bundle:interceptors:appRoutes:options:)`` for a bundle re-opened from bytes
    /// validated before with these same interceptors (an update accepted on this device,
    /// under its acceptance stamp, which binds the interceptors too): the patterns its
    /// rules and the interceptors declare are compiled without being compared again.
    package convenience init(
        reopened bundle: RuleBundle, interceptors: [SwiftInterceptor], options: DeciderOptions
    ) throws(BundleError) {
        if let refusal = Self.hostVersionRefusal(
            bundle.manifest, directory: bundle.directory, host: options.hostVersion)
        {
            throw refusal
        }
        try self.init(
            routes: bundle.routes, bundle: bundle, interceptors: interceptors, appRoutes: AppRoutes(),
            options: options, patternsValidatedBefore: bundle.validatedBefore)
    }

    /// A decider with Swift interceptors only.
    /// - Parameters:
    ///   - routes: The route table.
    ///   - interceptors: The interceptors.
    ///   - appRoutes: Routes and group memberships the app sets in code, laid over the table;
    ///     the table's routes win clashes (``setAsideRoutes``).
    ///   - options: The bounds.
    /// - Throws: `BundleError` for an interceptor pattern that does not compile.
    public convenience init(
        routes: RouteTable, interceptors: [SwiftInterceptor] = [], appRoutes: AppRoutes = AppRoutes(),
        options: DeciderOptions = DeciderOptions()
    ) throws(BundleError) {
        try self.init(routes: routes, bundle: nil, interceptors: interceptors, appRoutes: appRoutes, options: options)
    }

    /// This decider's bundle (or table), options and Swift interceptors with another layer of
    /// the app's routes: what a policy activates when the app's layer changed, or a snapshot
    /// built elsewhere lacks it.
    /// - Parameter appRoutes: The layer.
    /// - Returns: This decider when it has that layer already, else a new one.
    /// - Throws: `BundleError` when a rule names a code route the new layer no longer has.
    public func with(appRoutes: AppRoutes) throws(BundleError) -> Decider {
        if appRoutes == self.appRoutes { return self }
        return try Decider(
            routes: baseRoutes, bundle: bundle, interceptors: interceptors, appRoutes: appRoutes, options: options)
    }

    /// This decider's bundle (or table), options and layer of app routes with other Swift
    /// interceptors.
    /// - Parameter interceptors: The interceptors.
    /// - Returns: The new decider.
    /// - Throws: `BundleError` when an interceptor's pattern does not compile or names no route.
    func with(interceptors: [SwiftInterceptor]) throws(BundleError) -> Decider {
        try Decider(
            routes: baseRoutes, bundle: bundle, interceptors: interceptors, appRoutes: appRoutes, options: options)
    }

    private init(
        routes base: RouteTable, bundle: RuleBundle?, interceptors: [SwiftInterceptor], appRoutes: AppRoutes,
        options: DeciderOptions, patternsValidatedBefore: Bool = false
    ) throws(BundleError) {
        let layered = try LayeredRoutes(appRoutes, over: base)
        let routes = layered.table
        self.routes = routes
        baseRoutes = base
        self.appRoutes = appRoutes
        setAsideRoutes = layered.setAside
        self.bundle = bundle
        self.options = options
        self.interceptors = interceptors
        let declarations = bundle?.declarations ?? RuleDeclarations()
        let onError = bundle?.manifest.onError ?? .reject
        let directory = bundle?.directory
        var problems: [Diagnostic] = []
        var redirects: RedirectRules?
        var plan: InterceptorPlan?
        do {
            redirects = try RedirectRules(
                declarations.redirects, options: routes.options, onError: onError, directory: directory,
                validatedBefore: patternsValidatedBefore)
        } catch {
            problems += error.diagnostics
        }
        do {
            // The app's run-time interceptors after the decider's own; one of the same name
            // as those is theirs already.
            let names = Set(interceptors.map(\.name))
            let swift = interceptors + appRoutes.interceptors.filter { !names.contains($0.name) }
            plan = try InterceptorPlan(
                routes: routes, declarations: declarations, swift: swift, bundleOnError: onError,
                directory: directory, sources: bundle?.sources ?? [],
                validatedBefore: patternsValidatedBefore && appRoutes.isEmpty)
        } catch { problems += error.diagnostics }
        guard problems.isEmpty, let redirects, let plan else { throw BundleError(problems) }
        self.redirects = redirects
        self.plan = plan
        fallbacks = declarations.fallbacks.enumerated().map { index, fallback in
            PolicyStep(
                stage: .fallback, name: "fallback", location: fallback.location, priority: 0, onError: onError,
                body: .lua(fallback.function), order: index)
        }
        // A bundle that declares no function (only unconditional redirects) never needs an engine.
        let declaresFunctions =
            !declarations.interceptors.isEmpty || !declarations.groups.isEmpty
            || !declarations.fallbacks.isEmpty || declarations.redirects.contains { $0.condition != nil }
        engines = declaresFunctions ? bundle?.engines : nil
        bundleLabel = bundle.map { "\($0.manifest.name)@\($0.manifest.version)" }
    }

    /// Decides one request.
    /// - Parameters:
    ///   - request: What was asked.
    ///   - context: What rules read as `ctx`. Pass the same instance while the app state
    ///     does not change: it is converted for Lua once.
    /// - Returns: The decision, with its trace. Never throws: a failing rule, a bad URL
    ///   or a redirect loop is a decision too.
    public func decide(_ request: RouteRequest, context: ContextSnapshot = .empty) -> Decision {
        decide(request, context: context, passedGates: [])
    }

    /// Decides a request resumed after gates, as the router does once a gate's page
    /// finishes: gating on one of `passedGates` again is a gate loop. What a rule test's
    /// `then:` runs.
    /// - Parameters:
    ///   - request: What was asked.
    ///   - context: What rules read as `ctx`.
    ///   - passedGates: The gates the request passed and resumed after, in order.
    /// - Returns: The decision.
    package func decide(_ request: RouteRequest, context: ContextSnapshot, passedGates: [String]) -> Decision {
        var run = DecisionRun(decider: self, request: request, context: context, passedGates: passedGates)
        guard let engines else {
            var none = NoDeclaredFunctions()
            return run.run(&none)
        }
        do {
            return try engines.withEngine { engine throws(LuaError) in
                engine.withSession(context: context) { session in run.run(&session) }
            }
        } catch {
            return run.engineFailure(error)
        }
    }

    /// Decides one request with `stage` — the router's async interceptors, the gates it
    /// passed, its undefined-route handler — as stages of the same decision: one trace, one
    /// redirect count, one verdict interpreter; no engine is held while they await.
    /// - Parameters:
    ///   - request: What was asked.
    ///   - context: What rules and interceptors read.
    ///   - stage: What the router adds.
    /// - Returns: The decision.
    func decide(_ request: RouteRequest, context: ContextSnapshot, awaiting stage: AsyncStage) async -> Decision {
        var run = DecisionRun(decider: self, request: request, context: context)
        return await run.run(awaiting: stage)
    }

    /// The refusal of a bundle for a newer app than `host`, at the manifest's
    /// `minimum_host_version`; `nil` when it fits or no host version is set.
    static func hostVersionRefusal(_ manifest: BundleManifest, directory: String?, host: SemanticVersion?)
        -> BundleError?
    {
        guard let host, let required = manifest.minimumHostVersion, !manifest.supports(hostVersion: host) else {
            return nil
        }
        let file = directory.flatMap {
            BundleFileText(directory: $0, names: ["manifest.yaml", "manifest.yml", "manifest.json"])
        }
        return BundleError(
            [
                Diagnostic(
                    .error,
                    "\(manifest.name)@\(manifest.version) needs an app of version \(required) or later "
                        + "(minimum_host_version); this app is \(host): it is for a newer release of the app, "
                        + "which will take it — keep the bundle this app has",
                    at: file.map { $0.location(ofKey: "minimum_host_version") ?? $0.start })
            ], hostTooOld: BundleError.HostTooOld(required: required, host: host))
    }
}
