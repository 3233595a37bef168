import JunctionCore
import JunctionLua

/// The steps the decider records, one constructor for each thing that can happen, so
/// each is worded in one place.
extension TraceStep {
    // MARK: - Stages

    /// The URL does not parse.
    static func unparsable(_ url: String, error: String, nanoseconds: Int) -> TraceStep {
        TraceStep(.parse, detail: url, error: error, nanoseconds: nanoseconds)
    }

    /// A declared redirect is taken: its `when` held, or it has none.
    static func declaredRedirect(_ rule: RedirectRules.Rule, to target: String, nanoseconds: Int) -> TraceStep {
        TraceStep(
            .redirect, name: rule.name, location: rule.location, verdict: .redirect(url: target, params: [:]),
            nanoseconds: nanoseconds)
    }

    /// The route table was searched: the best route for the URL, if any.
    static func match(_ route: Route?, nanoseconds: Int) -> TraceStep {
        TraceStep(.match, name: route?.name, detail: route?.pattern ?? "no route matches", nanoseconds: nanoseconds)
    }

    /// `declined` declined (`next()`): the next route for the same URL, if any.
    static func nextMatch(after declined: Route, _ next: Route?, nanoseconds: Int) -> TraceStep {
        TraceStep(
            .match, name: next?.name,
            detail: next.map { "next match after \(declined.name): \($0.pattern)" }
                ?? "no route after \(declined.name)",
            nanoseconds: nanoseconds)
    }

    /// A URL no route matched goes to the dispatcher of its scheme.
    static func handOver(_ scheme: String, nanoseconds: Int) -> TraceStep {
        TraceStep(
            .handOver, name: scheme, detail: "no route; \(scheme) URLs go to the \(scheme) dispatcher",
            nanoseconds: nanoseconds)
    }

    /// The router's undefined-route handler named a URL to open instead of one nothing
    /// takes: a redirect of the same decision.
    static func undefinedRoute(to target: String, nanoseconds: Int) -> TraceStep {
        TraceStep(
            .redirect, name: "undefinedRouteHandler", location: "router", verdict: .redirect(url: target, params: [:]),
            nanoseconds: nanoseconds)
    }

    /// The access check: `route` is exported, or `refusal` says why it may not open.
    static func access(_ route: Route, refusal: Rejection?, nanoseconds: Int) -> TraceStep {
        TraceStep(.access, name: route.name, detail: refusal?.reason ?? "exported", nanoseconds: nanoseconds)
    }

    // MARK: - Rules

    /// A rule returned a verdict.
    static func rule(_ step: PolicyStep, verdict: Verdict, nanoseconds: Int, instructions: Int) -> TraceStep {
        TraceStep(
            step.stage, name: step.traceName, location: step.location, verdict: verdict, nanoseconds: nanoseconds,
            instructions: instructions)
    }

    /// A redirect's `when` returned whether the redirect is taken (when it is, the
    /// redirect's own step follows).
    static func condition(_ step: PolicyStep, holds: Bool, nanoseconds: Int, instructions: Int) -> TraceStep {
        TraceStep(
            step.stage, name: step.traceName, location: step.location,
            detail: holds ? "when holds" : "when is false: not taken",
            nanoseconds: nanoseconds, instructions: instructions)
    }

    /// A rule failed — raised an error, ran out of its budget, returned what its kind
    /// cannot read — and its `on_error` applies.
    static func failed(_ step: PolicyStep, error: String, nanoseconds: Int, instructions: Int) -> TraceStep {
        let detail =
            switch (step.onError, step.kind) {
            case (.reject, _): "on_error = reject"
            case (.continue, .condition): "on_error = continue: not taken"
            case (.continue, _): "on_error = continue: carrying on"
            }
        return TraceStep(
            step.stage, name: step.traceName, location: step.location, detail: detail, error: error,
            nanoseconds: nanoseconds, instructions: instructions)
    }

    /// A rule crossed the decision's budget (its instructions or its time): the decision
    /// ends, whatever the rule's `on_error` says.
    static func budgetSpent(_ step: PolicyStep, error: LuaError, nanoseconds: Int, instructions: Int) -> TraceStep {
        TraceStep(
            step.stage, name: step.traceName, location: step.location,
            detail: "the decision's budget is spent: the decision ends, whatever on_error says",
            error: error.description,
            nanoseconds: nanoseconds, instructions: instructions)
    }

    /// A rule gated to a URL that would loop, as `refusal` says.
    static func gateRefused(
        _ step: PolicyStep, verdict: Verdict, refusal: Rejection, nanoseconds: Int, instructions: Int
    ) -> TraceStep {
        TraceStep(
            step.stage, name: step.traceName, location: step.location, verdict: verdict, detail: refusal.reason,
            nanoseconds: nanoseconds, instructions: instructions)
    }

    /// A rule's verdict brought the decision's verdicts past their bound, as `refusal` says.
    static func verdictTooLarge(_ step: PolicyStep, refusal: Rejection, nanoseconds: Int, instructions: Int)
        -> TraceStep
    {
        TraceStep(
            step.stage, name: step.traceName, location: step.location, detail: "verdict too large",
            error: refusal.reason,
            nanoseconds: nanoseconds, instructions: instructions)
    }

    // MARK: - The decision

    /// No engine could be lent to run the rules.
    static func engineFailure(_ error: LuaError) -> TraceStep {
        TraceStep(.decision, error: error.description)
    }

    /// The trace reached its bound of `maximum` bytes, and `leftOut` bytes of later steps
    /// were left out.
    static func traceCut(maximum: Int, leftOut: Int) -> TraceStep {
        TraceStep(
            .decision,
            detail:
                "the trace keeps at most \(maximum) bytes of texts and verdicts (DeciderOptions.maximumTraceBytes); "
                + "\(leftOut) bytes of later steps were left out")
    }
}

extension PolicyStep {
    /// The name a trace shows: none for a fallback, which has none of its own.
    fileprivate var traceName: String? { kind == .fallback ? nil : name }
}
