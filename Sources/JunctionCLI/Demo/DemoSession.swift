import Junction

/// The scripted session `junction demo` runs: a day in the sample app, each step's
/// decisions, what the presenter was asked, results delivered, and the page stack after.
/// Deterministic: no timings, page numbers in opening order.
@MainActor
final class DemoSession {
    private let app: SampleApp
    private let bundleLabel: String
    private var router: Router { app.router }
    private var step = 0
    private let write: (String) -> Void
    /// How many results each open's opener received, by the open's number.
    private var resultCounts: [Int: Int] = [:]
    /// What each open put on the stack, by the open's number, for its result's line.
    private var openedPages: [Int: String] = [:]

    static let draft = "123e4567-e89b-12d3-a456-426614174000"

    init(bundle: RuleBundle, write: @escaping (String) -> Void) throws(BundleError) {
        bundleLabel = "\(bundle.manifest.name)@\(bundle.manifest.version)"
        app = try SampleApp(bundle: bundle, context: ContextSnapshot(Self.guest)) { write("   " + $0) }
        self.write = write
        router.decisionObserver = { decision in
            var line = "   decision: \(decision.request.url) → \(decision.summary)"
            let rules = decision.trace.steps.compactMap { step -> String? in
                guard let verdict = step.verdict, verdict != .continue, let location = step.location else { return nil }
                return "\(step.name ?? step.stage.rawValue) (\(location))"
            }
            if !rules.isEmpty { line += "  [by \(rules.joined(separator: ", "))]" }
            write(line)
        }
    }

    static let guest: [String: RuleValue] = ["app_version": "5.2.0", "hour": 20, "flags": ["live_disabled": false]]
    static let member: [String: RuleValue] = [
        "app_version": "5.2.0", "hour": 20, "flags": ["live_disabled": false], "user": ["id": 7, "age": 30],
    ]

    /// Runs the whole session.
    func run() async throws {
        write("Junction demo: a session of the sample app under \(bundleLabel)")
        write("(decisions, what the presenter was asked, results, and the page stack after each step)")

        await section("Launch: the app opens its home page") {
            await open("myapp://home")
        }

        await section("A push link to a login-gated page, opened by a guest") {
            await open("myapp://moments/7", source: .push, opener: "push handler")
            note("the user logs in: the context now has a user, and the login page finishes with ok")
            router.context = ContextSnapshot(Self.member)
            finishTop(with: .ok())
            await router.settle()
        }

        await section("The address picker returns the chosen address to its opener") {
            await open("myapp://address/pick", style: .present, opener: "moments")
            note("the user picks an address")
            finishTop(with: .ok("221B Baker Street"))
        }

        await section("Capture → edit → publish") {
            await open("myapp://video/capture", opener: "moments")
            await open("myapp://video/edit/\(Self.draft)", opener: "capture")
            await open("myapp://video/publish/\(Self.draft)", opener: "edit")
        }

        await section("After publishing, back to the page before the capture page") {
            let top = router.top
            if let top { router.setResult(.ok("published"), for: top.id) }
            note("publish set its result; back(before: \"video.capture\")")
            let reached = router.back(before: "video.capture")
            note("reached \(reached.map(describe) ?? "nothing")")
        }

        await section("An H5 page calls the native share action through invoke") {
            await open("https://m.shop.example.com/sale/42", opener: "moments")
            do {
                let value = try await router.invoke(
                    "myapp://action/share", params: ["text": "Big sale!", "channel": "wechat"], source: .h5)
                note("invoke returned \(value.map { ($0 as? RuleValue)?.compactDescription ?? "\($0)" } ?? "nothing")")
            } catch {
                note("invoke failed: \(error)")
            }
            note("the user leaves the web page")
            router.back()
        }

        await section("The native order page crashes on 5.3.0: that version gets the H5 page") {
            router.context = ContextSnapshot(Self.member.merging(["app_version": "5.3.0"]) { $1 })
            await open("myapp://order/AB123456", opener: "moments")
            note("the user leaves the web page")
            router.back()
        }

        await section("A page of the Flutter module opens in the Flutter engine") {
            await open("flutter://moments/feed?tab=friends", opener: "moments")
            note("the user leaves the Flutter page")
            router.back()
        }

        await section("An old app version gets a push link to a route it does not know") {
            router.context = ContextSnapshot(Self.member.merging(["app_version": "4.9.0"]) { $1 })
            await open("myapp://newfeature/x", source: .push, opener: "push handler")
        }

        await section(
            "Back on 5.2.0 at home, a push link to an order builds home › orders › order; a second tap shows it once"
        ) {
            router.context = ContextSnapshot(Self.member)
            note("the user leaves the upgrade page and goes back to the home page")
            router.back(to: "home")
            await open("myapp://order/AB123456", source: .push, opener: "push handler")
            await open("myapp://order/AB123456", source: .push, opener: "push handler, second tap")
            note("the user goes back: to the order list, not out of the app")
            router.back()
        }

        await section("A coupon picker in the mini-program's H5 container returns its result like a native page") {
            await open("wxmp://coupons/pick?order=AB123456", opener: "orders")
            if let id = router.pagesElsewhere.last {
                note("the H5 page posts the chosen coupon: router.finish(\(id), with: .ok(\"SAVE10\"))")
                router.finish(id, with: .ok("SAVE10"))
            }
        }

        await section("The app shows tabs; a push link switches to the orders tab by URL") {
            do {
                try await router.setTabs(["myapp://home", "myapp://orders"])
            } catch {
                note("setTabs failed: \(error)")
            }
            await open("myapp://tab/1?filter=unpaid", source: .push, opener: "push handler")
        }

        let heard = resultCounts.values.filter { $0 > 0 }.count
        let twice = resultCounts.filter { $0.value > 1 }.keys.sorted()
        write("")
        write(
            "\(resultCounts.count) opens: \(heard) openers heard back, \(twice.isEmpty ? "none more than once" : "\(twice) more than once"); "
                + "\(router.pages.count) page\(router.pages.count == 1 ? " is" : "s are") still open, and "
                + "\(router.pages.count == 1 ? "its opener hears" : "their openers hear") when \(router.pages.count == 1 ? "it leaves" : "they leave")."
        )
    }

    // MARK: - Steps

    private func section(_ title: String, _ body: () async -> Void) async {
        step += 1
        write("")
        write("\(step). \(title)")
        await body()
        write("   stack: \(stackLine())")
    }

    private func open(
        _ url: String, style: PresentationStyle? = nil, source: RequestSource = .internal, opener: String? = nil
    ) async {
        let label = opener ?? "opener"
        let number = resultCounts.count + 1
        resultCounts[number] = 0
        write(
            "   open \(url)" + (source == .internal ? "" : " (from \(source))")
                + (style.map { " as \($0.rawValue)" } ?? ""))
        let opening = await router.open(url, style: style, source: source) { [unowned self] result in
            resultCounts[number, default: 0] += 1
            write("   result of \(openedPages[number] ?? url) → \(label): \(result)")
        }
        if case .gated = opening {
            openedPages[number] = "\(url), resumed after the gate"
        } else {
            openedPages[number] = opening.page.map(describe)
        }
        write("   → \(opening.summary)")
    }

    private func finishTop(with result: RouteResult) {
        guard let top = router.top else { return }
        note("\(describe(top)) finishes with \(result)")
        router.finish(top.id, with: result)
    }

    private func note(_ text: String) { write("   … \(text)") }

    private func describe(_ page: Page) -> String { "\(page.name) \(page.id)" }

    private func stackLine() -> String {
        guard !router.pages.isEmpty else { return "(empty)" }
        return router.pages.map { page in
            (page.presentation == .presented ? "[modal] " : "") + "\(describe(page)) “\(page.content)”"
        }.joined(separator: " › ")
    }
}
