import Junction
import JunctionAuthoring
import Testing

/// docs/tour.md's Router tour, kept true: the snippet below is the tour's, line for line,
/// with `#expect`s where the tour has comments.
@MainActor
@Suite struct ReadmeRouterTests {
    final class HomePage {}
    final class ProfilePage {
        let id: Int
        init(id: Int) { self.id = id }
    }
    final class AddressPicker {
        let pageID: PageID
        init(pageID: PageID) { self.pageID = pageID }
    }
    final class WebPage {
        let url: String
        init(url: String) { self.url = url }
    }

    @Test func theTourDoesWhatItSays() async throws {
        var analytics: [String] = []
        var picked: RouteResult?

        // --- docs/tour.md: "Opening URLs: the Router" ---
        let router = try Router(
            bundle: RuleBundle.load(directory: ReadmeDecidingTests.example),
            presenter: HeadlessPresenter(),  // a UIKit presenter in an app (below)
            context: ContextSnapshot(["user": ["id": 7]]))

        // What the app can open: pages and tasks by target name, whole schemes.
        router.register(page: "home") { _ in HomePage() }
        router.register(page: "ProfilePage") { request in
            ProfilePage(id: request.params.int("id")!)  // typed by routes.yaml: id is an int
        }
        router.register(page: "address.picker") { request in AddressPicker(pageID: request.id) }
        router.register(task: "share") { request in "shared " + (request.params.string("text") ?? "") }
        router.register(dispatcher: "https") { handOver in .page(WebPage(url: handOver.url)) }

        // Hooks: every decision, with its trace, without touching call sites.
        router.decisionObserver = { decision in analytics.append(decision.summary) }

        await router.open("myapp://home")
        await router.open("myapp://user/42")  // pushed: home › user.profile
        #expect(router.pages.map(\.name) == ["home", "user.profile"])
        router.back()  // popped: home
        #expect(router.pages.map(\.name) == ["home"])

        // Results: the opener hears exactly once, when the page is removed.
        await router.open("myapp://address/pick", style: .present) { result in
            picked = result  // ok "221B Baker Street"
        }
        router.finish(router.top!.id, with: .ok("221B Baker Street"))
        #expect(picked?.code == .ok && picked?.data as? String == "221B Baker Street")

        // Tasks: another module's function, by URL, under the same rules.
        let shared = try await router.invoke("myapp://action/share?text=hi", as: String.self)  // "shared hi"
        #expect(shared == "shared hi")

        // Typed errors: rejected by a rule or the access check, unknown route, bad parameter …
        let opening = await router.open("myapp://user/settings", source: .push)
        if let error = opening.error {
            print(error.code, error.rejection?.code ?? 0)  // rejected 403: not exported
        }
        // --- end of the tour's snippet ---
        #expect(opening.error?.code == .rejected)
        #expect(opening.error?.rejection?.code == 403)
        #expect(
            analytics == [
                "open home", #"open user.profile {"id":42,"tab":"posts"}"#, "open address.picker", "open share",
                #"rejected (403): route "user.settings" is not exported, so a request from "push" may not open it (only internal ones may); mark it exported: true in the route table to allow it"#,
            ])
    }
}
