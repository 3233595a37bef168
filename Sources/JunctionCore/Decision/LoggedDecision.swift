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
        /// A refusal; its reason is cut to 200 characters when the line is written (a long
        /// one already when it is recorded).
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
        case .reject(var rejection):
            // A rule's reason may be up to a verdict's size; the line keeps 200 characters,
            // and the log counts a decision for its URL, params and context only.
            if rejection.reason.utf8.count > 800 { rejection.reason = String(rejection.reason.prefix(200)) }
            outcome = .reject(rejection)
        case .gate(let url, _): outcome = .gate(url: url)
        case .handOver(let scheme): outcome = .handOver(scheme: scheme)
        }
        route = decision.match?.route.name
        bundle = decision.trace.bundle
        let steps = decision.trace.steps
        var deciding: Int?
        search: for index in steps.indices.reversed() {
            if steps[index].error != nil {
                deciding = index
                break
            }
            // A switch reads the verdict in place; `==` and `if case` copied it.
            switch steps[index].verdict {
            case nil, .continue?: continue search
            default:
                deciding = index
                break search
            }
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

    /// Whether a decision is kept whatever the sample: a refusal, a gate, an unmatched URL.
    package static func isAlwaysKept(_ decision: Decision) -> Bool {
        switch decision.outcome {
        case .reject, .gate, .unmatched: true
        case .open, .respond, .handOver: false
        }
    }

    /// Whether a rule failed deciding `decision` (its `on_error` decided).
    package static func ruleFailed(_ decision: Decision) -> Bool {
        // By index: each step's error is read where it is, no step copied.
        let steps = decision.trace.steps
        for index in steps.indices where steps[index].error != nil { return true }
        return false
    }
}
