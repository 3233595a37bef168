import Junction
import JunctionAuthoring
import Testing

/// `params_strict: true`: a request carrying a parameter the route does not declare is
/// rejected before any rule runs, naming the parameters, in a bounded message.
@Suite struct DeciderStrictParametersTests {
    static let table = try! RouteTable.load(
        text: """
            routes:
              - name: pay
                pattern: myapp://pay/:orderId
                params_strict: true
                params:
                  amount: int
                  coupon: string
              - name: loose
                pattern: myapp://loose/:id
            """, file: "routes.yaml")

    /// URL and caller's parameters → the decision's summary.
    struct Case: Sendable, CustomTestStringConvertible {
        let url: String
        var params: [String: RuleValue] = [:]
        let decision: String
        var testDescription: String { url }
    }

    static let cases: [Case] = [
        Case(url: "myapp://pay/7?amount=3", decision: #"open pay {"amount":3,"orderId":"7"}"#),
        Case(
            url: "myapp://pay/7", params: ["coupon": "SAVE10"], decision: #"open pay {"coupon":"SAVE10","orderId":"7"}"#
        ),
        Case(
            url: "myapp://pay/7?amount=3&debug=1",
            decision:
                #"rejected (400): route "pay" is params_strict, and the request carries parameter "debug", which it does not declare; declare it in the route's params: or leave it out"#
        ),
        Case(
            url: "myapp://pay/7?b=1&a=2&b=3", params: ["c": true],
            decision:
                #"rejected (400): route "pay" is params_strict, and the request carries parameters "b", "a", "c", which it does not declare; declare them in the route's params: or leave them out"#
        ),
        Case(url: "myapp://loose/1?anything=1", decision: #"open loose {"id":"1"}"#),
    ]

    @Test(arguments: cases)
    func undeclaredParametersAreRejected(_ test: Case) throws {
        let decision = try Decider(routes: Self.table).decide(RouteRequest(test.url, params: test.params))
        #expect(decision.summary == test.decision)
        if case .reject(let rejection) = decision.outcome {
            #expect(rejection.cause == .undeclaredParameters)
            #expect(decision.trace.steps.last?.stage == .access)
        }
    }

    @Test func tenThousandUndeclaredParametersMakeAShortMessage() throws {
        let query = (0..<10_000).map { "p\($0)=\(String(repeating: "x", count: 8))" }.joined(separator: "&")
        let long = String(repeating: "n", count: 5_000)
        let decision = try Decider(routes: Self.table).decide(RouteRequest("myapp://pay/7?\(long)=1&\(query)"))
        guard case .reject(let rejection) = decision.outcome else {
            Issue.record("expected a rejection, got \(decision.summary)")
            return
        }
        #expect(rejection.reason.utf8.count < 500)
        #expect(rejection.reason.contains("and 9996 more"))
        #expect(rejection.code == 400)
    }

    @Test func theFlagRoundTripsThroughCanonicalJSON() throws {
        let json = try Self.table.canonicalJSON(relativeTo: nil)
        let back = try RouteTable(canonicalJSON: json, file: "routes.json")
        #expect(back.routes.map(\.isParamsStrict) == [true, false])
    }

    @MainActor
    @Test func theOpenerSeesTheRejection() async throws {
        let router = try Router(routes: Self.table)
        router.register(page: "pay") { _ in "pay" }
        let opening = await router.open("myapp://pay/7?amount=1&admin=true")
        #expect(opening.error?.code == .rejected)
        #expect(opening.error?.rejection?.cause == .undeclaredParameters)
    }
}
