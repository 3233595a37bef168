public import JunctionCore
public import JunctionLua

/// Requests that exercise a whole bundle, and what of a decision two deciders must agree
/// on: for tests that compare two ways of loading one bundle (its folder, its canonical
/// JSON, an accepted artifact).
public enum DecisionSamples {
    /// What must be the same: the outcome, the route, its parameters, the redirects, and
    /// the trace step by step (without its timings).
    public static func fingerprint(_ decision: Decision) -> [String] {
        [
            decision.summary, decision.match?.route.name ?? "-", RuleValue.table(decision.params).description,
            decision.redirects.joined(separator: " "),
        ]
            + decision.trace.steps.map { step in
                "\(step.stage) \(step.name ?? "-") \(step.location ?? "-") \(step.verdict.map { "\($0)" } ?? "-") "
                    + "\(step.error ?? "-") \(step.detail)"
            }
    }

    /// The bundle's tests' own requests, and sample URLs of every route (and of every
    /// declared redirect) opened from three sources with three contexts.
    public static func requests(for bundle: RuleBundle) -> [(RouteRequest, ContextSnapshot)] {
        var requests: [(RouteRequest, ContextSnapshot)] = []
        for test in bundle.tests {
            let params: [String: RuleValue] = if case .table(let fields) = test.params { fields } else { [:] }
            let context: [String: RuleValue] = if case .table(let fields) = test.context { fields } else { [:] }
            requests.append(
                (
                    RouteRequest(test.open, params: params, source: RequestSource(rawValue: test.source)),
                    ContextSnapshot(context)
                ))
        }
        let patterns = bundle.routes.routes.map(\.pattern) + bundle.declarations.redirects.map(\.from)
        var urls: [String] = []
        for pattern in patterns {
            for expansion in expansions(of: pattern) {
                for value in ["42", "AB123456", "abc", "0000000000042"] {
                    var url = expansion.replacing(/:[A-Za-z_][A-Za-z0-9_]*(\((?:[^()]|\([^()]*\))*\))?/, with: value)
                    url = url.replacing("**", with: "a/b").replacing("*", with: "x")
                    if url.hasPrefix("/") { url = "myapp:/" + url }
                    urls.append(url)
                }
            }
        }
        let contexts: [ContextSnapshot] = [
            ContextSnapshot(), ContextSnapshot(["user": ["id": 1], "app_version": "5.3.0"]),
            ContextSnapshot(["user": ["id": 7, "age": 15], "app_version": "6.0.0", "banned": true]),
        ]
        let sources: [RequestSource] = [.internal, .push, .h5]
        for (index, url) in urls.enumerated() {
            // Every URL once from each source; the context turns with it.
            for (turn, source) in sources.enumerated() {
                requests.append(
                    (
                        RouteRequest(url + (index % 3 == 1 ? "?ref=push&coupon=A" : ""), source: source),
                        contexts[(index + turn) % contexts.count]
                    ))
            }
        }
        return requests
    }

    /// A pattern with each optional group `(/…)` taken and left out.
    public static func expansions(of pattern: String) -> [String] {
        guard let open = pattern.range(of: "(/") else { return [pattern] }
        var depth = 0
        var close = open.lowerBound
        for index in pattern[open.lowerBound...].indices {
            if pattern[index] == "(" { depth += 1 }
            if pattern[index] == ")" { depth -= 1 }
            if depth == 0 {
                close = index
                break
            }
        }
        let before = pattern[..<open.lowerBound]
        let inner = pattern[pattern.index(after: open.lowerBound)..<close]
        let after = pattern[pattern.index(after: close)...]
        return expansions(of: String(before + inner + after)) + expansions(of: String(before + after))
    }
}
