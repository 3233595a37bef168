import JunctionCore

extension Verdict {
    /// About how many bytes the verdict's values hold: their strings' bytes plus a word per
    /// value. What a decision keeps of a rule's answer (in its trace, its parameters).
    var payloadBytes: Int {
        switch self {
        case .continue, .next: 0
        case .redirect(let url, let params): url.utf8.count + RuleValue.table(params).payloadBytes
        case .reject(let reason, _): reason.utf8.count
        case .gate(let url, _): url.utf8.count
        case .rewrite(let params): RuleValue.table(params).payloadBytes
        case .respond(let value): value.payloadBytes
        }
    }
}

extension RuleValue {
    /// About how many bytes the value holds: its strings' bytes (keys included) plus a
    /// word per value.
    var payloadBytes: Int {
        switch self {
        case .nil, .bool, .int, .double: 8
        case .string(let text): 8 + text.utf8.count
        case .bytes(let bytes): 8 + bytes.count
        case .array(let items): items.reduce(8) { $0 + $1.payloadBytes }
        case .table(let fields): fields.reduce(8) { $0 + $1.key.utf8.count + $1.value.payloadBytes }
        }
    }
}
