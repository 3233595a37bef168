import Junction
import Testing

/// `gate(url)`: the gate's page opens first; the original request resumes through the
/// whole pipeline when it finishes with `ok`, and its opener gets `cancelled` otherwise.
@MainActor
@Suite struct RouterGateTests {
    static let guest = ContextSnapshot(["app_version": "5.2.0", "hour": 12])
    static let member = ContextSnapshot(["app_version": "5.2.0", "hour": 12, "user": ["id": 1]])

    @Test func aLoginGateResumesTheOriginalRequestWithTheNewContext() async throws {
        let presenter = HeadlessPresenter()
        let router = try RouterFixture.router(context: Self.guest, presenter: presenter)
        await router.open("myapp://home")
        let log = ResultLog()
        let opening = await router.open("myapp://moments/7", source: .push, onResult: log.callback("push"))
        #expect(opening.summary == "gated by myapp://login: opened login #2")
        let login = try #require(opening.page)
        #expect(login.presentation == .pushed)
        #expect(log.entries.isEmpty)

        router.context = Self.member  // the user logged in
        #expect(router.finish(login.id, with: .ok()))
        // Awaited to the end of what it started: the resumed page, on screen.
        let outcome = await router.outcome(of: opening)
        #expect(outcome.summary == "opened moments #3")
        #expect(RouterFixture.names(router) == ["home", "moments"])
        #expect(router.top?.params.int("id") == 7)
        #expect(log.entries.isEmpty)  // moments is open; its result comes when it leaves
        router.back()
        #expect(log.lines == ["push: cancelled"])
        // The resume is one transition: the target takes the gate page's place.
        #expect(
            presenter.log == [
                "root of tab 0: home #1", "push login #2", "replace login #2 with moments #3",
                "pop to home #1, removing moments #3",
            ])
    }

    @Test func leavingTheGateCancelsTheOriginalRequest() async throws {
        let router = try RouterFixture.router(context: Self.guest)
        await router.open("myapp://home")
        let log = ResultLog()
        await router.open("myapp://checkout", onResult: log.callback("checkout"))
        #expect(router.top?.name == "login")
        router.back()
        await router.settle()
        #expect(log.lines == ["checkout: cancelled"])
        #expect(log.entries[0].result.message == "myapp://login ended cancelled")
        #expect(RouterFixture.names(router) == ["home"])
    }

    @Test func aGateThatSucceedsWithoutChangingAnythingIsALoopNotAnEndlessLogin() async throws {
        let router = try RouterFixture.router(context: Self.guest)
        await router.open("myapp://home")
        let log = ResultLog()
        await router.open("myapp://checkout", onResult: log.callback("checkout"))
        let login = try #require(router.top)
        router.finish(login.id, with: .ok())  // but the context still has no user
        await router.settle()
        #expect(log.lines == ["checkout: rejected"])
        #expect(
            log.entries[0].result.message?.contains("gate loop: myapp://checkout was gated by myapp://login again")
                == true)
        #expect(RouterFixture.names(router) == ["home"])
    }

    @Test func anAsyncInvokeWaitsBehindTheGateAndResumes() async throws {
        let table = try RouteTable(routes: [
            Route(name: "login", pattern: "app://login"),
            Route(name: "pay", pattern: "app://action/pay", groups: ["login"]),
        ])
        let router = try Router(routes: table, context: Self.guest)
        try router.add(
            SwiftInterceptor("login-gate", scope: .group("login")) { _, context in
                context.values["user"] == nil ? .gate(url: "app://login", resume: true) : .continue
            })
        router.register(page: "login") { TestPage($0) }
        router.register(asyncTask: "pay") { _ in "paid" }
        async let paid = router.invoke("app://action/pay", as: String.self)
        while router.top == nil { try? await Task.sleep(for: .milliseconds(1)) }
        router.context = Self.member
        router.finish(try #require(router.top).id, with: .ok())
        #expect(try await paid == "paid")
        // The gate's page was the only one (nothing was open at launch); finishing it empties the stack.
        #expect(router.pages.isEmpty)
    }

    @Test func anAsyncInvokeWhoseGateIsLeftThrowsCancelled() async throws {
        let router = try RouterFixture.router(context: Self.guest)
        await router.open("myapp://home")
        router.register(task: "checkout") { _ in "never" }
        router.removePage("checkout")
        let call = Task { @MainActor () async throws -> Void in _ = try await router.invoke("myapp://checkout") }
        while router.top?.name != "login" { try? await Task.sleep(for: .milliseconds(1)) }
        router.back()
        let outcome = await call.result
        guard case .failure(let failure) = outcome, let error = failure as? RouterError else {
            Issue.record("expected cancelled, the invoke succeeded")
            return
        }
        #expect(error.code == .cancelled && error.message == "myapp://login ended cancelled")
    }

    @Test func theSynchronousInvokeReportsTheGate() throws {
        let router = try RouterFixture.router(context: Self.guest)
        router.register(task: "checkout") { _ in "never" }
        router.removePage("checkout")
        #expect { try router.invoke("myapp://checkout") } throws: { error in
            (error as? RouterError)?.code == .gated && (error as? RouterError)?.url == "myapp://login"
        }
    }
}
