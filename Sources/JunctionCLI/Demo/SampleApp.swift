import Junction

/// The sample shopping and social app of the demo: its pages, its `share` task, and the
/// `https`, `flutter` and `wxmp` (mini-program) dispatchers, which record what they open.
@MainActor
final class SampleApp {
    let router: Router
    /// Receives what the presenter and the dispatchers are asked, as it happens.
    private let record: (String) -> Void

    init(bundle: RuleBundle, context: ContextSnapshot, record: @escaping (String) -> Void) throws(BundleError) {
        self.record = record
        router = try Router(bundle: bundle, presenter: EchoPresenter(record), context: context)
        registerPages()
        router.register(task: "share") { request in
            // The native share sheet; here it only reports what it would share.
            let text = request.params.string("text") ?? ""
            return RuleValue.table([
                "shared": .string(text), "via": .string(request.params.string("channel") ?? "system"),
            ])
        }
        router.register(task: "experiment") { _ in
            // A rule answers with the caller's variant; this runs only if none does.
            RuleValue.string("control")
        }
        router.register(dispatcher: "https") { handOver in
            record("https dispatcher: a web view for \(handOver.url)")
            return .page(SamplePage(title: "Web: \(handOver.url)"))
        }
        router.register(dispatcher: "flutter") { handOver in
            record("flutter dispatcher: a Flutter view for \(handOver.url)")
            return .page(SamplePage(title: "Flutter: \(handOver.url)"))
        }
        router.register(dispatcher: "wxmp") { handOver in
            // The mini-program runtime shows its H5 pages on its own stack and reports
            // their results later, with the page's id.
            record("wxmp dispatcher: the mini-program runtime opens \(handOver.url) as \(handOver.id)")
            return .openedElsewhere
        }
        // At launch, not when a user taps: what the bundle leads to that nothing opens.
        for missing in router.verifyRegistrations() { record("missing registration: \(missing)") }
    }

    private func registerPages() {
        let titles: [String: @Sendable (RouteParameters) -> String] = [
            "home": { _ in "Home" },
            "moments": { params in params.int("id").map { "Moment \($0)" } ?? "Moments" },
            "login": { _ in "Log in" },
            "address.picker": { _ in "Pick an address" },
            "video.capture": { _ in "Capture" },
            "video.edit": { params in "Edit draft \(params.string("draft") ?? "?")" },
            "video.publish": { params in "Publish draft \(params.string("draft") ?? "?")" },
            "upgrade": { params in "Please update the app (link: \(params.string("from") ?? "none"))" },
            "ProfilePage": { params in "Profile \(params["id"]?.compactDescription ?? params.string("name") ?? "?")" },
            "SettingsPage": { _ in "Settings" },
            "checkout": { _ in "Checkout" },
            "checkout.v2": { _ in "Checkout (new)" },
            "orders": { _ in "Orders" },
            "order.detail": { params in "Order \(params.string("orderId") ?? "?")" },
            "live.room": { params in "Live room \(params.int("room") ?? 0)" },
            "WebPage": { params in "Live (H5) \(params.string("**") ?? "")" },
            "web": { params in "Web: \(params.string("url") ?? "")" },
            "help.article": { params in "Help: \(params.string("**") ?? "")" },
            "files": { params in "File \(params.string("**") ?? "")" },
            "promo": { _ in "Promotion" },
        ]
        for (target, title) in titles {
            router.register(page: target) { request in SamplePage(title: title(request.params)) }
        }
    }
}
