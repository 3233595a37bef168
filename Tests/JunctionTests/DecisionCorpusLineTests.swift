import Foundation
import Junction
import Testing

@Suite struct DecisionCorpusLineTests {
    static let routes = try! RouteTable(routes: [Route(name: "user", pattern: "myapp://user/:id")])

    @Test(
        arguments: [
            (RouteRequest("myapp://user/1"), [:], #"{"source":"internal","url":"myapp://user/1"}"#),
            (
                RouteRequest("myapp://user/1?tab=likes", params: ["from": "feed"], source: .push),
                ["user": ["id": 7], "app_version": "6.0.0"],
                #"{"context":{"app_version":"6.0.0","user":{"id":7}},"params":{"from":"feed"},"source":"push","url":"myapp://user/1?tab=likes"}"#
            ),
            (
                RouteRequest("myapp://user/\"quoted\"\n"), [:],
                #"{"source":"internal","url":"myapp://user/\"quoted\"\n"}"#
            ),
            (RouteRequest("myapp://user/1", params: ["ratio": .double(.nan)]), [:], nil),
        ] as [(RouteRequest, [String: RuleValue], String?)])
    func writesTheRequestAsACorpusLine(request: RouteRequest, context: [String: RuleValue], line: String?) throws {
        let decision = try Decider(routes: Self.routes).decide(request, context: ContextSnapshot(context))
        #expect(decision.corpusLine(context: ContextSnapshot(context)) == line)
    }

    @Test func samplesAboutTheShareAsked() throws {
        let decision = try Decider(routes: Self.routes).decide(RouteRequest("myapp://user/1"))
        #expect(decision.corpusLine(context: .empty, sampling: 1) != nil)
        #expect((0..<1_000).allSatisfy { _ in decision.corpusLine(context: .empty, sampling: 0) == nil })
        let kept = (0..<20_000).filter { _ in decision.corpusLine(context: .empty, sampling: 0.1) != nil }.count
        // 10% of 20,000: 2,000, with a standard deviation of about 42.
        #expect((1_750...2_250).contains(kept), "\(kept)")
    }
}
