import Foundation
import Junction
import Testing

/// `invoke`: tasks by URL, synchronous and asynchronous, with typed errors.
@MainActor
@Suite struct RouterInvokeTests {
    struct Boom: Error {}

    @Test func aSynchronousTaskAnswers() throws {
        let router = try RouterFixture.router()
        let value = try router.invoke("myapp://action/share", params: ["text": "Look!", "channel": "wechat"])
        #expect(value as? RuleValue == ["shared": "Look!", "channel": "wechat"])
    }

    @Test func aRulesRespondAnswersWithoutATask() throws {
        let router = try RouterFixture.router(context: ContextSnapshot(["device_id": "d3"]))
        let table = try router.invoke("myapp://action/experiment/new-feed", as: [String: RuleValue].self)
        #expect(table == ["experiment": "new-feed", "variant": "B"])
        #expect { try router.invoke("myapp://action/experiment/new-feed", as: Int.self) } throws: { error in
            (error as? RouterError)?.code == .wrongResultType
                && (error as? RouterError)?.message == "expected Int, got RuleValue"
        }
    }

    @Test func typedResultsConvertFromRuleValues() throws {
        let table = try RouteTable(routes: [Route(name: "n", pattern: "app://n")])
        let router = try Router(routes: table)
        router.register(task: "n") { _ in RuleValue.int(7) }
        #expect(try router.invoke("app://n", as: Int.self) == 7)
        #expect(try router.invoke("app://n", as: Int64.self) == 7)
    }

    @Test(
        arguments: [
            (
                "myapp://user/42", RouterError.Code.notATask,
                #"route "user.profile" leads to the page "ProfilePage"; open it instead"#
            ),
            (
                "myapp://user/settings", .rejected,
                #"rejected (403): route "user.settings" is not exported, so a request from "h5" may not open it (only internal ones may); mark it exported: true in the route table to allow it"#
            ),
            ("tp://nothing", .unknownRoute, "no route or fallback takes this URL"),
            ("https://example.org/x", .notATask, "the URL goes to the https dispatcher, which opens pages; use open"),
            (
                "myapp://web", .missingParameter,
                #"route "web" requires parameter "url" (string); pass it in the URL or in params"#
            ),
        ] as [(String, RouterError.Code, String)])
    func errorsAreTyped(url: String, code: RouterError.Code, message: String) throws {
        let router = try RouterFixture.router()
        router.register(task: "web") { _ in nil }
        #expect { try router.invoke(url, source: .h5) } throws: { error in
            let error = error as? RouterError
            return error?.code == code && error?.message == message && error?.url == url
        }
    }

    @Test func aThrowingTaskIsTargetFailedWithTheUnderlyingError() throws {
        let router = try RouterFixture.router()
        router.register(task: "share") { _ in throw Boom() }
        #expect { try router.invoke("myapp://action/share") } throws: { error in
            (error as? RouterError)?.code == .targetFailed && (error as? RouterError)?.underlying is Boom
        }
    }

    @Test func theSynchronousInvokeRefusesAnAsynchronousTask() async throws {
        let router = try RouterFixture.router()
        router.register(asyncTask: "share") { request in "async " + (request.params.string("text") ?? "") }
        #expect { try router.invoke("myapp://action/share") } throws: { error in
            (error as? RouterError)?.code == .asynchronousTask
        }
        #expect(try await router.invoke("myapp://action/share?text=hi", as: String.self) == "async hi")
    }

    @Test func anAsynchronousTaskRunsOffTheMainActor() async throws {
        let router = try RouterFixture.router()
        router.register(asyncTask: "share") { _ in Thread.isMainThread }
        #expect(try await router.invoke("myapp://action/share", as: Bool.self) == false)
    }

    @Test func openRunsATaskAndTheOpenerGetsItsValue() async throws {
        let router = try RouterFixture.router()
        let log = ResultLog()
        let opening = await router.open("myapp://action/share?text=x", onResult: log.callback("h5"))
        #expect(opening.summary == #"answered {"channel":"system","shared":"x"}"#)
        #expect(log.lines == ["h5: ok"])
        #expect(router.pages.isEmpty)
    }
}
