import JunctionCore
import JunctionLua

/// The refusals the decider itself words (a rule's own `reject` carries its own words).
extension Rejection {
    /// The URL does not parse.
    static func unparsable(_ url: String, error: String) -> Rejection {
        Rejection(.invalidURL, reason: "the URL \"\(url)\" does not parse: \(error)", code: 400)
    }

    /// A route that is not exported, asked for from outside the app.
    static func notExported(_ route: Route, source: RequestSource) -> Rejection {
        Rejection(
            .notExported,
            reason: "route \"\(route.name)\" is not exported, so a request from \"\(source)\" may not open it"
                + " (only internal ones may); mark it exported: true in the route table to allow it",
            code: 403)
    }

    /// The most undeclared parameter names a rejection lists; the rest are counted.
    static let undeclaredNamesListed = 5

    /// A request to a `params_strict` route carried `count` undeclared parameters, the
    /// first of them `names`.
    static func undeclaredParameters(_ route: Route, names: [String], count: Int) -> Rejection {
        let listed = names.map { $0.count > 64 ? "\"\($0.prefix(64))…\"" : "\"\($0)\"" }.joined(separator: ", ")
        let more = count > names.count ? " and \(count - names.count) more" : ""
        return Rejection(
            .undeclaredParameters,
            reason: "route \"\(route.name)\" is params_strict, and the request carries "
                + (count == 1
                    ? "parameter \(listed), which it does not declare"
                    : "parameters \(listed)\(more), which it does not declare")
                + "; declare \(count == 1 ? "it" : "them") in the route's params: or leave \(count == 1 ? "it" : "them") out",
            code: 400)
    }

    /// A rule failed and its `on_error` is `reject`.
    static func ruleFailed(_ rule: String, error: String) -> Rejection {
        Rejection(.ruleFailed, reason: "rule \"\(rule)\" failed: \(error)", code: 500, rule: rule)
    }

    /// `rule` crossed the decision's budget.
    static func budgetSpent(by rule: String, _ error: LuaError) -> Rejection {
        Rejection(
            .decisionBudget, reason: "rule \"\(rule)\" crossed the decision's budget: \(error.message)", code: 500,
            rule: rule)
    }

    /// `rule` returned a verdict of `size` bytes, which brought the decision's verdicts to
    /// `total`, past `maximum`.
    static func verdictTooLarge(by rule: String, size: Int, total: Int, maximum: Int) -> Rejection {
        Rejection(
            .decisionBudget,
            reason: "rule \"\(rule)\" returned a verdict of \(size) bytes, which brings the decision's verdicts to "
                + "\(total) bytes, more than the \(maximum) a decision may carry (DeciderOptions.maximumVerdictBytes)",
            code: 500, rule: rule)
    }

    /// `rule` gated to `url` from `current`, which loops back to a URL waiting behind a gate
    /// (`gated`, outermost first), to a gate the request already passed (`passed`), or nests
    /// gates deeper than `maximumDepth`; `nil` when it does none of these.
    static func gateLoop(
        by rule: String, to url: String, from current: String, gated: [String], passed: [String], maximumDepth: Int
    ) -> Rejection? {
        let reason: String
        if url == current {
            reason = "gate loop: \(current) gates itself"
        } else if passed.contains(url) {
            reason = "gate loop: \(current) was gated by \(url) again after \(url) succeeded"
        } else if gated.contains(url) {
            reason = "gate loop: \((gated + [current, url]).joined(separator: " → "))"
        } else if gated.count >= maximumDepth {
            reason = "gates nest deeper than \(maximumDepth): \((gated + [current, url]).joined(separator: " → "))"
        } else {
            return nil
        }
        return Rejection(.gateLoop, reason: reason, code: 508, rule: rule)
    }

    /// A redirect to `target` after `visited` (in order): a loop back to one of them, or
    /// one redirect more than `maximum`; `nil` when it is neither.
    static func redirectRefused(to target: String, after visited: [String], maximum: Int) -> Rejection? {
        if let first = visited.firstIndex(of: target) {
            let cycle = (visited[first...] + [target]).joined(separator: " → ")
            return Rejection(.redirectLoop, reason: "redirect loop: \(cycle)", code: 508)
        }
        if visited.count > maximum {
            let path = (visited + [target]).joined(separator: " → ")
            return Rejection(.tooManyRedirects, reason: "more than \(maximum) redirects: \(path)", code: 508)
        }
        return nil
    }

    /// The rules could not run: the pool could not lend an engine.
    static func engineFailure(_ error: LuaError) -> Rejection {
        Rejection(.ruleFailed, reason: "the rules could not run: \(error.message)", code: 500)
    }
}
