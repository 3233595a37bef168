/// What a rule decided, read from what it returned: `nil` (carry on) or one of the
/// verdict constructors of the rule API (docs/rules.md).
public enum Verdict: Sendable, Hashable {
    /// `nil`: carry on.
    case `continue`
    /// `redirect(url, params?, { keep_query = true }?)`: open `url` instead, carrying
    /// `params`, and with `keepQuery` the query of the URL being decided, appended after
    /// `url`'s own (as a declared redirect's `keep_query` does).
    case redirect(url: String, params: [String: RuleValue] = [:], keepQuery: Bool = false)
    /// `reject(reason, code?)`: refuse the request.
    case reject(reason: String, code: Int?)
    /// `gate(url, { resume = true })`: open `url` first (a login page) and, when it
    /// finishes successfully, run the original request again if `resume`.
    case gate(url: String, resume: Bool)
    /// `rewrite { params = {...} }`: change parameters and carry on.
    case rewrite(params: [String: RuleValue])
    /// `next()`: this route declines; try the next matching route.
    case next
    /// `respond(value)`: answer an action route directly.
    case respond(RuleValue)
}

extension Verdict {
    /// A short form for traces: `continue`, `redirect myapp://x`, `reject "reason" (403)`.
    public var summary: String {
        switch self {
        case .continue: return "continue"
        case .redirect(let url, let params, let keepQuery):
            return "redirect \(url)" + (params.isEmpty ? "" : " \(RuleValue.table(params).compactDescription)")
                + (keepQuery ? " (keep_query)" : "")
        case .reject(let reason, let code): return "reject \"\(reason)\"" + (code.map { " (\($0))" } ?? "")
        case .gate(let url, let resume): return "gate \(url)" + (resume ? "" : " (no resume)")
        case .rewrite(let params): return "rewrite \(RuleValue.table(params).compactDescription)"
        case .next: return "next"
        case .respond(let value): return "respond \(value.compactDescription)"
        }
    }
}
