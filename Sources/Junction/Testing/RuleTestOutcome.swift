package import JunctionCore
package import JunctionLua

/// A rule test run: the decision it got and every expectation that did not hold.
package struct RuleTestOutcome: Sendable {
    /// The test.
    package let test: RuleTestCase
    /// The decision the pipeline made for it.
    package let decision: Decision
    /// One line per expectation that failed: `expected gate myapp://login, got open moments`.
    package let failures: [String]

    /// Whether every expectation held.
    package var passed: Bool { failures.isEmpty }
}

extension Decider {
    /// Runs a rule test: decides its request and checks each expectation it gives.
    /// - Parameter test: The test.
    /// - Returns: The decision and the failed expectations.
    package func run(_ test: RuleTestCase) -> RuleTestOutcome {
        let params: [String: RuleValue] = if case .table(let fields) = test.params { fields } else { [:] }
        let context: [String: RuleValue] = if case .table(let fields) = test.context { fields } else { [:] }
        let request = RouteRequest(test.open, params: params, source: RequestSource(rawValue: test.source))
        let decision = decide(request, context: ContextSnapshot(context))
        return RuleTestOutcome(
            test: test, decision: decision, failures: Self.check(test.expectation, against: decision))
    }

    private static func check(_ expected: RuleTestCase.Expectation, against decision: Decision) -> [String] {
        var failures: [String] = []
        let actual = decision.summary
        func fail(_ what: String) { failures.append("expected \(what), got \(actual)") }

        if let route = expected.route {
            if case .open = decision.outcome, decision.match?.route.name == route {} else { fail("route \(route)") }
        }
        if let params = expected.params {
            let actualParams = decision.params
            for key in params.keys.sorted() where actualParams[key] != params[key] {
                let got = actualParams[key].map(\.compactDescription) ?? "nothing"
                failures.append("expected params.\(key) = \(params[key]!.compactDescription), got \(got)")
            }
        }
        if let redirect = expected.redirect {
            let final = decision.uri?.string
            if !decision.wasRedirected || final != redirect {
                failures.append(
                    "expected a redirect to \(redirect), got "
                        + (decision.wasRedirected ? "a redirect to \(final ?? "an invalid URL")" : "no redirect")
                        + " (\(actual))")
            }
        }
        if expected.reject {
            if case .reject(let rejection) = decision.outcome {
                if let reason = expected.rejectReason, rejection.reason != reason { fail("reject \"\(reason)\"") }
            } else {
                fail(expected.rejectReason.map { "reject \"\($0)\"" } ?? "a rejection")
            }
        }
        if let gate = expected.gate {
            if case .gate(let url, _) = decision.outcome, url == gate {} else { fail("gate \(gate)") }
        }
        if let respond = expected.respond {
            if case .respond(let value) = decision.outcome, value == respond {
            } else {
                fail("respond \(respond.compactDescription)")
            }
        }
        if let scheme = expected.handOver {
            if case .handOver(let actual) = decision.outcome, actual == scheme {
            } else {
                fail("a hand-over to the \(scheme) dispatcher")
            }
        }
        if expected.unmatched {
            if case .unmatched = decision.outcome {} else { fail("unmatched") }
        }
        return failures
    }
}
