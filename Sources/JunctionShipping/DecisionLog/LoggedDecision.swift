import Junction

/// What a decision's log line is written from, taken from the decision as it is recorded:
/// its URL, source and params, the outcome, the route, the deciding step, the bundle, and
/// the path parameters for masking — and nothing else of it. The log holds these, not the
/// decision: a decision keeps its whole trace, match and parsed URL alive, and a log full
/// of them made every later decision slower (`decide.logged`: its allocations no longer
/// reused warm memory). One object, so the log's entries stay small and move as pointers.
final class LoggedDecision {
    /// The outcome, with what a line says of it.
    enum Outcome {
        case open, respond, unmatched
        case reject(cause: String, code: Int?, reason: String)
        case gate(url: String)
        case handOver(scheme: String)
    }

    let url: String
    let source: RequestSource
    let params: [String: RuleValue]
    let outcome: Outcome
    /// The route reached.
    let route: String?
    /// The last step whose verdict decided something, or that failed: its stage, name,
    /// location and error.
    let stepStage: TraceStep.Stage?
    let stepName: String?
    let stepLocation: String?
    let stepError: String?
    /// The bundle that decided (`example@3`).
    let bundle: String?
    /// The path parameters of the request's own URL, for masking them in its path: the
    /// match's, when no redirect came between.
    let pathParameters: PathParameters?

    init(_ decision: Decision) {
        let request = decision.request
        url = request.url
        source = request.source
        params = request.params
        switch decision.outcome {
        case .open: outcome = .open
        case .respond: outcome = .respond
        case .unmatched: outcome = .unmatched
        case .reject(let rejection):
            outcome = .reject(
                cause: rejection.cause.rawValue, code: rejection.code, reason: String(rejection.reason.prefix(200)))
        case .gate(let url, _): outcome = .gate(url: url)
        case .handOver(let scheme): outcome = .handOver(scheme: scheme)
        }
        let match = decision.match
        route = match?.route.name
        let trace = decision.trace
        bundle = trace.bundle
        let steps = trace.steps
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
        pathParameters = decision.redirects.isEmpty ? match?.parameters : nil
    }
}
