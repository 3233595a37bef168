import JunctionCore

extension RuleValue {
    /// About how many bytes the value holds: its strings' bytes (keys included) plus a
    /// word per value. What a decision keeps of a rule's answer (in its trace, its
    /// parameters) is measured with it.
    package var payloadBytes: Int {
        switch self {
        case .nil, .bool, .int, .double: 8
        case .string(let text): 8 + text.utf8.count
        case .bytes(let bytes): 8 + bytes.count
        case .array(let items): items.reduce(8) { $0 + $1.payloadBytes }
        case .table(let fields): Self.payloadBytes(of: fields)
        }
    }

    /// About how many bytes a table's fields hold.
    package static func payloadBytes(of fields: [String: RuleValue]) -> Int {
        fields.reduce(8) { $0 + $1.key.utf8.count + $1.value.payloadBytes }
    }
}
