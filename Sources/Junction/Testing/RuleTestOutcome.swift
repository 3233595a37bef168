package import JunctionCore
package import JunctionLua

/// A rule test run: the decision it got, the rules that failed in it, and every
/// expectation that did not hold.
package struct RuleTestOutcome: Sendable {
    /// A rule that failed while deciding — raised an error, ran out of a budget, returned
    /// what is not a verdict — as its trace step records it.
    package struct FailedRule: Sendable, Hashable, CustomStringConvertible {
        /// Where in the pipeline it ran.
        package let stage: TraceStep.Stage
        /// The interceptor's or group's name, a redirect's `from`; `nil` for a fallback, and
        /// when the rules could not run at all.
        package let name: String?
        /// Where the rule is written: `policies.lua:4`, or `swift`.
        package let location: String?
        /// The error, with the line it was raised at: `policies.lua:6: attempt to index a nil value`.
        package let error: String
        /// What the failure did: `on_error = reject`, `on_error = continue: carrying on`, or
        /// that the decision's budget ended it.
        package let consequence: String

        /// The failed rule of `step`, or `nil` when the step is not a rule's failure (an
        /// unparsable URL is the request's fault, not a rule's).
        init?(_ step: TraceStep) {
            guard let error = step.error, step.stage != .parse else { return nil }
            stage = step.stage
            name = step.name
            location = step.location
            self.error = error
            consequence = step.detail
        }

        /// The rule: `group login (policies.lua:4)`, `fallback (fallback.lua:3)`.
        package var rule: String {
            guard stage != .decision else { return "the rules" }
            return [stage.rawValue, name, location.map { "(\($0))" }].compactMap(\.self).joined(separator: " ")
        }

        /// `group login (policies.lua:4) failed: policies.lua:6: attempt to index a nil value; on_error = reject`.
        package var description: String {
            "\(rule) failed: \(error)" + (consequence.isEmpty ? "" : "; \(consequence)")
        }

        /// What `fails:` would say to expect this failure: the rule's name, else its place.
        package var designation: String { name ?? location ?? error }

        /// Whether `item` of `fails:` designates it: its name, its `file:line`, or part of
        /// its error.
        func isDesignated(by item: String) -> Bool {
            item == name || item == location || error.contains(item)
        }
    }

    /// The test.
    package let test: RuleTestCase
    /// The decision the pipeline made for it.
    package let decision: Decision
    /// The decisions of the request resumed after each gate `then:` follows, in order.
    package let resumed: [Decision]
    /// The decision and those resumed after gates: what the test ran, for coverage.
    package var decisions: [Decision] { [decision] + resumed }
    /// Every rule that failed while deciding, in the order they ran.
    package let failedRules: [FailedRule]
    /// One line per expectation that failed: `expected gate myapp://login, got open moments`.
    package let failures: [String]

    /// Whether every expectation held.
    package var passed: Bool { failures.isEmpty }

    /// Whether a report shows ``failedRules``: when rules failed and the test failed, or
    /// the test expects rules to fail.
    package var showsFailedRules: Bool {
        !failedRules.isEmpty && (!passed || test.expectation.failures != .never)
    }
}

extension Decider {
    /// Runs a rule test: decides its request and checks each expectation it gives, and
    /// that no rule failed but those it expects to.
    /// - Parameter test: The test.
    /// - Returns: The decision, the rules that failed and the failed expectations.
    package func run(_ test: RuleTestCase) -> RuleTestOutcome {
        let params: [String: RuleValue] = if case .table(let fields) = test.params { fields } else { [:] }
        let context: [String: RuleValue] = if case .table(let fields) = test.context { fields } else { [:] }
        let request = RouteRequest(test.open, params: params, source: RequestSource(rawValue: test.source))
        let decision = decide(request, context: ContextSnapshot(context))
        var failedRules = decision.trace.steps.compactMap(RuleTestOutcome.FailedRule.init)
        var failures = check(test.expectation, against: decision)
        failures += Self.check(test.expectation.failures, against: failedRules, decision: decision)
        // then: the gate held; decide again under the context after it, as the router resumes.
        var resumed: [Decision] = []
        var expectation = test.expectation
        var current = (decision: decision, context: test.context)
        var gates: [String] = []
        while failures.isEmpty, let then = expectation.then, case .gate(let url, let resume) = current.decision.outcome
        {
            guard resume else {
                failures.append(
                    "expected the gate \(url) to resume the request, for then: to follow, but it does not: return "
                        + "gate(url, { resume = true })")
                break
            }
            gates.append(url)
            let context = then.context(after: current.context)
            let fields: [String: RuleValue] = if case .table(let fields) = context { fields } else { [:] }
            let next = decide(request, context: ContextSnapshot(fields), passedGates: gates)
            let failed = next.trace.steps.compactMap(RuleTestOutcome.FailedRule.init)
            let after = "after the gate \(url), with context \(context.compactDescription): "
            failures += check(then.expectation, against: next).map { after + $0 }
            failures += Self.check(then.expectation.failures, against: failed, decision: next).map { after + $0 }
            failedRules += failed
            resumed.append(next)
            expectation = then.expectation
            current = (next, context)
        }
        return RuleTestOutcome(
            test: test, decision: decision, resumed: resumed, failedRules: failedRules, failures: failures)
    }

    private func check(_ expected: RuleTestCase.Expectation, against decision: Decision) -> [String] {
        var failures: [String] = []
        let actual = decision.summary
        func fail(_ what: String) { failures.append("expected \(what), got \(actual)") }

        if let route = expected.route {
            if case .open = decision.outcome, decision.match?.route.name == route {
            } else if routes.route(named: route) == nil {
                let names = routes.routes.lazy.map(\.name)
                fail(
                    "route \(route) (no route is named \"\(route)\"\(NearestName.suggestion(for: route, among: names)))"
                )
            } else {
                fail("route \(route)")
            }
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
        if expected.noRedirect, decision.wasRedirected { fail("no redirect") }
        if expected.expectsRejection { failures += Self.check(rejection: expected, against: decision) }
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

    /// `reject:`, `code:`, `reason:` and `cause:`: the decision is a rejection, by a rule or
    /// the access check for `reject:`, with the code, reason and cause given.
    private static func check(rejection expected: RuleTestCase.Expectation, against decision: Decision) -> [String] {
        let actual = decision.summary
        guard case .reject(let rejection) = decision.outcome else {
            var what =
                expected.reject
                ? expected.reason.map { "reject \"\($0)\"" } ?? "a rejection by a rule or the access check"
                : "a rejection"
            if let code = expected.code { what += " with code \(code)" }
            if let cause = expected.cause { what += " (cause \(cause.rawValue))" }
            if !expected.reject, let reason = expected.reason { what += " for \"\(reason)\"" }
            return ["expected \(what), got \(actual)"]
        }
        var failures: [String] = []
        if expected.reject {
            switch rejection.cause {
            case .rule, .notExported:
                break
            case .ruleFailed, .decisionBudget:
                failures.append(
                    "expected a rejection by a rule or the access check, got a rule failure (cause "
                        + "\(rejection.cause.rawValue)): \(actual)")
            default:
                failures.append(
                    "expected a rejection by a rule or the access check, got the decider's own (cause "
                        + "\(rejection.cause.rawValue)): \(actual); to expect it, write cause: "
                        + "\(rejection.cause.rawValue) without reject:")
            }
        }
        if let cause = expected.cause, rejection.cause != cause {
            failures.append("expected cause \(cause.rawValue), got cause \(rejection.cause.rawValue): \(actual)")
        }
        if let code = expected.code, rejection.code != code {
            failures.append("expected code \(code), got \(rejection.code.map(String.init) ?? "none"): \(actual)")
        }
        if let reason = expected.reason, rejection.reason != reason {
            failures.append("expected reason \"\(reason)\", got \(actual)")
        }
        return failures
    }

    /// `fails:`: by default no rule may fail; `true`, at least one; a list, the rules it
    /// designates and no others.
    private static func check(
        _ expected: RuleTestCase.Expectation.Failures, against failed: [RuleTestOutcome.FailedRule],
        decision: Decision
    ) -> [String] {
        switch expected {
        case .never:
            return failed.map {
                "expected no rule to fail, but \($0.rule) failed; if the test means it, add fails: \($0.designation)"
            }
        case .any:
            return failed.isEmpty ? ["expected a rule to fail, got no failure: \(decision.summary)"] : []
        case .matching(let items):
            var failures: [String] = []
            for item in items where !failed.contains(where: { $0.isDesignated(by: item) }) {
                let got =
                    failed.isEmpty
                    ? "no failure: \(decision.summary)"
                    : "failures of " + failed.map(\.rule).joined(separator: ", ")
                failures.append(
                    "expected a rule designated by \"\(item)\" (its name, file:line or part of its error) to fail, "
                        + "got \(got)")
            }
            for rule in failed where !items.contains(where: rule.isDesignated) {
                failures.append(
                    "expected no other rule to fail, but \(rule.rule) failed; if the test means it, add it to fails:")
            }
            return failures
        }
    }
}
