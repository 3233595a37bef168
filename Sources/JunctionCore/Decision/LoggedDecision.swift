/// What a decision's log line is written from, taken from the decision as it is recorded:
/// its URL, source and params, the outcome, the route, the deciding step and the path
/// parameters for masking — and nothing else of it.
///
/// One object, so the log's entries stay small and move as pointers (as a value of this
/// size, each move was a copy of 200 bytes); it holds only references the decision
/// already had, most of them the bundle's own strings. The log does not hold the decision
/// itself: a decision keeps its whole trace, match and parsed URL alive,
/// and a log full of them made every later decision slower (`decide.logged`: its
/// allocations no longer reused warm memory).
package final class LoggedDecision {
    /// The outcome, with what a line says of it.
    package enum Outcome {
        case open, respond, unmatched
        /// A refusal; its reason is cut to 200 characters when the line is written.
        case reject(Rejection)
        case gate(url: String)
        case handOver(scheme: String)
    }

    package let url: String
    package let source: RequestSource
    package let params: [String: RuleValue]
    package let outcome: Outcome
    /// The route reached.
    package let route: String?
    /// The last step whose verdict decided something, or that failed: its stage, name,
    /// location and error.
    package let stepStage: TraceStep.Stage?
    package let stepName: String?
    package let stepLocation: String?
    package let stepError: String?
    /// The bundle that decided (`example@3`).
    package let bundle: String?
    /// The path parameters of the request's own URL, for masking them in its path: the
    /// match's, when no redirect came between.
    package let pathParameters: PathParameters?

    package init(_ decision: Decision) {
        // Read here, in the decision's own module, where its accessors are inlined: from
        // another module each is a call and a reference count on the decision's box.
        url = decision.request.url
        source = decision.request.source
        params = decision.request.params
        switch decision.outcome {
        case .open: outcome = .open
        case .respond: outcome = .respond
        case .unmatched: outcome = .unmatched
        case .reject(let rejection): outcome = .reject(rejection)
        case .gate(let url, _): outcome = .gate(url: url)
        case .handOver(let scheme): outcome = .handOver(scheme: scheme)
        }
        route = decision.match?.route.name
        bundle = decision.trace.bundle
        let steps = decision.trace.steps
        var deciding: Int?
        for index in steps.indices.reversed() {
            if steps[index].error != nil {
                deciding = index
                break
            }
            if case .continue? = steps[index].verdict { continue }
            if steps[index].verdict == nil { continue }
            deciding = index
            break
        }
        if let deciding {
            stepStage = steps[deciding].stage
            stepName = steps[deciding].name
            stepLocation = steps[deciding].location
            stepError = steps[deciding].error
        } else {
            (stepStage, stepName, stepLocation, stepError) = (nil, nil, nil, nil)
        }
        pathParameters = decision.redirects.isEmpty ? decision.match?.parameters : nil
    }
}
