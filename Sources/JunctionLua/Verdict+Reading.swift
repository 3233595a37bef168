public import JunctionCore

extension Verdict {
    /// Reads a rule's result.
    /// - Parameters:
    ///   - value: What the rule returned.
    ///   - rule: The rule's name, for the error.
    /// - Throws: `LuaError` (code `conversion`) when the value is not a verdict.
    public init(_ value: RuleValue, rule: String) throws(LuaError) {
        func invalid(_ why: String) -> LuaError {
            LuaError(
                code: .conversion, chunkName: rule, line: nil,
                message:
                    "\(why); a rule returns nil (carry on) or a verdict: redirect(url), reject(reason), gate(url), rewrite{ params = ... }, next() or respond(value)"
            )
        }
        guard case .table(let fields) = value else {
            if case .nil = value {
                self = .continue
                return
            }
            throw invalid("the rule returned \(Self.describe(value))")
        }
        guard case .string(let kind)? = fields[VerdictTable.kind.key] else {
            throw invalid("the rule returned a table that is not a verdict")
        }
        func string(_ name: VerdictTable.Name) -> String? {
            if case .string(let text)? = fields[name.key] { text } else { nil }
        }
        func table(_ name: VerdictTable.Name) -> [String: RuleValue] {
            if case .table(let t)? = fields[name.key] { t } else { [:] }
        }
        switch kind {
        case VerdictTable.redirect:
            guard let url = string(VerdictTable.url) else { throw invalid("redirect() needs a URL") }
            self = .redirect(
                url: url, params: table(VerdictTable.params),
                keepQuery: fields[VerdictTable.keepQuery.key] == .bool(true))
        case VerdictTable.reject:
            let code: Int? = if case .int(let number)? = fields[VerdictTable.code.key] { Int(number) } else { nil }
            self = .reject(reason: string(VerdictTable.reason) ?? "", code: code)
        case VerdictTable.gate:
            guard let url = string(VerdictTable.url) else { throw invalid("gate() needs a URL") }
            self = .gate(url: url, resume: fields[VerdictTable.resume.key] != .bool(false))
        case VerdictTable.rewrite:
            self = .rewrite(params: table(VerdictTable.params))
        case VerdictTable.next:
            self = .next
        case VerdictTable.respond:
            self = .respond(fields[VerdictTable.value.key] ?? .nil)
        default:
            throw invalid("the rule returned an unknown verdict \"\(kind)\"")
        }
    }

    private static func describe(_ value: RuleValue) -> String {
        switch value {
        case .string(let text): return "the string \"\(text.prefix(40))\""
        case .int(let number): return "the number \(number)"
        case .double(let number): return "the number \(number)"
        case .bool(let flag): return "\(flag)"
        case .array: return "a list"
        case .bytes: return "binary data"
        default: return "\(value)"
        }
    }
}
