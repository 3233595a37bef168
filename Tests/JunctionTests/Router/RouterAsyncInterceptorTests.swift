import Junction
import JunctionCore
import Testing

/// Async interceptors: they await off the main actor under a deadline, as the last stage
/// of the decision, and their verdicts act as rules' do.
@MainActor
@Suite struct RouterAsyncInterceptorTests {
    /// A verdict after a short await → what the open did.
    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let verdict: Verdict
        var onError: RuleErrorPolicy = .reject
        let opening: String
        var testDescription: String { name }
    }

    nonisolated static let cases: [Case] = [
        Case(name: "continue", verdict: .continue, opening: "opened user.profile #1"),
        Case(
            name: "reject", verdict: .reject(reason: "token expired", code: 401),
            opening: "failed: rejected: rejected (401) by token: token expired"),
        Case(name: "respond", verdict: .respond("cached"), opening: #"answered "cached""#),
        Case(name: "redirect", verdict: .redirect(url: "myapp://moments/5", params: [:]), opening: "opened moments #1"),
        Case(
            name: "gate", verdict: .gate(url: "myapp://login", resume: true),
            opening: "gated by myapp://login: opened login #1"),
        Case(name: "next declines the route", verdict: .next, opening: "opened user.byName #1"),
        Case(name: "next, on_error continue", verdict: .next, onError: .continue, opening: "opened user.byName #1"),
    ]

    @Test(arguments: cases)
    func aVerdictActsAsARulesDoes(_ test: Case) async throws {
        let router = try RouterFixture.router()
        let verdict = test.verdict
        try router.add(
            AsyncInterceptor("token", scope: .route("user.profile"), onError: test.onError) { _, _ in
                try await Task.sleep(for: .milliseconds(5))
                return verdict
            })
        #expect(await router.open("myapp://user/42").summary == test.opening)
    }

    @Test(.timeLimit(.minutes(5))) func aMissedDeadlineEndsTheRunAndCancelsTheInterceptor() async throws {
        let router = try RouterFixture.router()
        let cancelled = Locked(false)
        // It would answer `continue` after ten minutes: only the deadline can end the open
        // with a failure, and no test run lasts that long.
        try router.add(
            AsyncInterceptor("slow", scope: .all, deadline: .milliseconds(40)) { _, _ in
                do { try await Task.sleep(for: .seconds(600)) } catch { cancelled.withLock { $0 = true } }
                return .continue
            })
        let opening = await router.open("myapp://home")
        #expect(opening.error?.rejection?.cause == .ruleFailed)
        #expect(opening.error?.message.contains("no verdict within its deadline of 0.04 seconds") == true)
        #expect(router.pages.isEmpty)
        while !cancelled.withLock({ $0 }) { try await Task.sleep(for: .milliseconds(5)) }
    }

    @Test func aMissedDeadlineWithOnErrorContinueOpens() async throws {
        let router = try RouterFixture.router()
        try router.add(
            AsyncInterceptor("slow", scope: .all, deadline: .milliseconds(20), onError: .continue) { _, _ in
                try await Task.sleep(for: .seconds(600))
                return .reject(reason: "too late", code: 403)
            })
        #expect(await router.open("myapp://home").summary == "opened home #1")
    }

    @Test func theMainActorStaysFreeWhileAnInterceptorAwaits() async throws {
        let router = try RouterFixture.router()
        let release = AsyncStream<Void>.makeStream()
        try router.add(
            AsyncInterceptor("waits", scope: .route("moments"), deadline: .seconds(30)) { _, _ in
                for await _ in release.stream { break }
                return .continue
            })
        let waiting = Task { await router.open("myapp://moments/1") }
        // While it awaits, the main actor opens another page.
        #expect(await router.open("myapp://home").summary == "opened home #1")
        release.continuation.yield()
        #expect(await waiting.value.summary == "opened moments #2")
    }

    @Test func interceptorsRunByPriorityWithinTheirScopeAndShowInTheTrace() async throws {
        let router = try RouterFixture.router()
        let order = Locked<[String]>([])
        func recorder(_ name: String) -> @Sendable (RuleRequest, ContextSnapshot) async throws -> Verdict {
            { _, _ in
                order.withLock { $0.append(name) }
                return .continue
            }
        }
        try router.add(AsyncInterceptor("low", scope: .all, priority: -1, run: recorder("low")))
        try router.add(AsyncInterceptor("login group", scope: .group("login"), run: recorder("login group")))
        try router.add(AsyncInterceptor("high", scope: .all, priority: 5, run: recorder("high")))
        try router.add(AsyncInterceptor("orders", scope: .pattern("myapp://order/:no"), run: recorder("orders")))
        #expect(throws: BundleError.self) { try router.add(AsyncInterceptor("high", scope: .all, run: recorder("x"))) }
        var trace: [String] = []
        router.decisionObserver = { decision in
            trace = decision.trace.steps.filter { $0.location == "async" }.map { "\($0.stage) \($0.name ?? "")" }
        }
        await router.open("myapp://moments/3")
        #expect(order.withLock { $0 } == ["high", "login group", "low"])
        #expect(trace == ["global high", "group login group", "global low"])
        order.withLock { $0 = [] }
        #expect(router.removeAsyncInterceptor(named: "low"))
        await router.open("myapp://home")
        #expect(order.withLock { $0 } == ["high"])
    }

    @Test func rewritesReachTheTarget() async throws {
        let router = try RouterFixture.router()
        try router.add(
            AsyncInterceptor("tab", scope: .route("user.profile")) { _, _ in .rewrite(params: ["tab": "likes"]) })
        let page = try #require(await router.open("myapp://user/42").page)
        #expect(page.params.string("tab") == "likes")
    }

    @Test func interceptorsRedirectingToEachOtherEndWithAClearError() async throws {
        let router = try RouterFixture.router()
        try router.add(
            AsyncInterceptor("ping", scope: .route("home")) { _, _ in .redirect(url: "myapp://moments/1", params: [:]) }
        )
        try router.add(
            AsyncInterceptor("pong", scope: .route("moments")) { _, _ in .redirect(url: "myapp://home", params: [:]) })
        var decisions: [Decision] = []
        router.decisionObserver = { decisions.append($0) }
        let opening = await router.open("myapp://home")
        #expect(opening.error?.rejection?.cause == .redirectLoop)
        #expect(
            opening.error?.rejection?.reason == "redirect loop: myapp://home → myapp://moments/1 → myapp://home")
        #expect(router.pages.isEmpty)
        #expect(decisions.count == 1, "one open is one decision, however many stages redirect")
    }

    /// Every way a request is decided, but `canOpen`, passes the async interceptors: a
    /// refusal of theirs holds for each, and the synchronous `invoke` never gets past one.
    @Test func everyWayToReachARouteRunsTheAsyncInterceptors() async throws {
        let router = try RouterFixture.router()
        try router.add(
            AsyncInterceptor("guard", scope: .routes(["user.profile", "share", "moments"])) { _, _ in
                try await Task.sleep(for: .milliseconds(2))
                return .reject(reason: "not now", code: 403)
            })
        // page(for:)
        await #expect {
            try await router.page(for: "myapp://user/42")
        } throws: { error in
            (error as? RouterError)?.rejection?.rule == "guard"
        }
        // the async invoke
        await #expect {
            try await router.invoke("myapp://action/share?text=hi")
        } throws: { error in
            (error as? RouterError)?.rejection?.reason == "not now"
        }
        // the synchronous invoke cannot wait, so it refuses
        #expect {
            try router.invoke("myapp://action/share?text=hi")
        } throws: { error in
            let error = error as? RouterError
            return error?.code == .asynchronousInterceptor
                && error?.message.contains("the async interceptor \"guard\" sees this request first") == true
        }
        // tabs: nothing changes
        await #expect(throws: RouterError.self) { try await router.setTabs(["myapp://home", "myapp://moments/1"]) }
        #expect(router.pages.isEmpty)
        // a route it does not cover is untouched
        #expect(try await router.page(for: "myapp://home").name == "home")
    }

    @Test func theAsyncInvokeFollowsRewritesAndRedirects() async throws {
        let router = try RouterFixture.router()
        try router.add(Route(name: "echo", pattern: "myapp://action/echo"), task: { $0.params.string("said") })
        try router.add(
            AsyncInterceptor("say", scope: .route("share")) { _, _ in
                .redirect(url: "myapp://action/echo", params: ["said": "redirected"])
            })
        let value = try await router.invoke("myapp://action/share?text=hi")
        #expect(value as? String == "redirected")
        #expect(try await router.page(for: "myapp://user/42").params.int("id") == 42)
    }

    @Test func redirectsBetweenAsyncInterceptorsEndForInvokeToo() async throws {
        let router = try RouterFixture.router()
        try router.add(
            AsyncInterceptor("ping", scope: .route("share")) { _, _ in .redirect(url: "myapp://moments/1", params: [:])
            })
        try router.add(
            AsyncInterceptor("pong", scope: .route("moments")) { _, _ in
                .redirect(url: "myapp://action/share", params: [:])
            })
        await #expect {
            try await router.invoke("myapp://action/share")
        } throws: { error in
            (error as? RouterError)?.rejection?.cause == .redirectLoop
        }
    }
}
