import Junction
import JunctionAuthoring
import JunctionTestSupport

/// What a test page factory makes: the request it was made from.
final class TestPage: Sendable {
    let request: PageRequest
    init(_ request: PageRequest) { self.request = request }
}

/// Results as openers received them, in order.
@MainActor
final class ResultLog {
    private(set) var entries: [(opener: String, result: RouteResult)] = []

    /// An `onResult` that records under `opener`.
    func callback(_ opener: String) -> @MainActor (RouteResult) -> Void {
        { [weak self] result in self?.entries.append((opener, result)) }
    }

    /// `opener: code` per entry.
    var lines: [String] { entries.map { "\($0.opener): \($0.result.code)" } }

    /// How many results `opener` received.
    func count(_ opener: String) -> Int { entries.filter { $0.opener == opener }.count }
}

/// A router over the example bundle with a page factory for every page target, the
/// `share` task, and `https`/`flutter` dispatchers that make pages.
@MainActor
enum RouterFixture {
    static let example = CLIPaths.repositoryRoot + "/rules/example"
    static let pageTargets = [
        "home", "ProfilePage", "SettingsPage", "moments", "login", "upgrade", "checkout", "checkout.v2", "WebPage",
        "orders", "order.detail", "address.picker", "video.capture", "video.edit", "video.publish", "web",
        "help.article",
        "files",
        "promo", "live.room",
    ]

    static func router(
        context: ContextSnapshot = ContextSnapshot([
            "user": ["id": 1], "app_version": "5.2.0", "hour": 12, "flags": ["live_disabled": false],
        ]),
        presenter: any Presenter = HeadlessPresenter()
    ) throws -> Router {
        let router = try Router(bundle: RuleBundle.load(directory: example), presenter: presenter, context: context)
        for target in pageTargets { router.register(page: target) { TestPage($0) } }
        router.register(task: "share") { request in
            [
                "shared": .string(request.params.string("text") ?? ""),
                "channel": .string(request.params.string("channel") ?? "system"),
            ]
                as RuleValue
        }
        router.register(dispatcher: "https") { handOver in .page(handOver.url) }
        router.register(dispatcher: "flutter") { handOver in .page(handOver.url) }
        return router
    }

    /// The visible stack as `name#id` words.
    static func names(_ router: Router) -> [String] { router.pages.map { "\($0.name)" } }
}
