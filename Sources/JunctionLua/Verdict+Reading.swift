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
                message: "\(why); a rule returns nil (carry on) or a verdict: redirect(url), reject(reason), gate(url), rewrite{ params = ... }, next() or respond(value)")
        }
        guard case .table(let fields) = value else {
            if case .nil = value { self = .continue; return }
            throw invalid("the rule returned \(Self.describe(value))")
        }
        guard case .string(let kind)? = fields["verdict"] else { throw invalid("the rule returned a table that is not a verdict") }
        func string(_ key: String) -> String? { if case .string(let text)? = fields[key] { text } else { nil } }
        func table(_ key: String) -> [String: RuleValue] { if case .table(let t)? = fields[key] { t } else { [:] } }
        switch kind {
        case "redirect":
            guard let url = string("url") else { throw invalid("redirect() needs a URL") }
            self = .redirect(url: url, params: table("params"))
        case "reject":
            let code: Int? = if case .int(let number)? = fields["code"] { Int(number) } else { nil }
            self = .reject(reason: string("reason") ?? "", code: code)
        case "gate":
            guard let url = string("url") else { throw invalid("gate() needs a URL") }
            self = .gate(url: url, resume: fields["resume"] != .bool(false))
        case "rewrite":
            self = .rewrite(params: table("params"))
        case "next":
            self = .next
        case "respond":
            self = .respond(fields["value"] ?? .nil)
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
