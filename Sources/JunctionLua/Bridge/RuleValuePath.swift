import JunctionCore
/// Where in a value a conversion problem is, rendered the way Lua code would
/// index it: `result.items[3]["content-type"]`.
///
/// Conversions build the path only when they fail, one component per level while
/// the error unwinds, so a value that converts pays nothing for it.
struct RuleValuePath {
    /// One step into a table.
    enum Component {
        /// A string key: `.name`, or `["two words"]` when it is not an identifier.
        case field(String)
        /// An integer key, as Lua numbers it: `[1]` is the first element.
        case index(Int64)
        /// Any other key, already rendered with its brackets: `[true]`, `[1.5]`.
        case rendered(String)
    }

    /// The components, innermost first.
    private var reversedComponents: [Component] = []

    /// Adds the step from the enclosing table, while the failure unwinds outward.
    mutating func prepend(_ component: Component) {
        reversedComponents.append(component)
    }

    /// `root` followed by the components, such as `result.items[3].x`.
    func rendered(root: String) -> String {
        var text = root
        for component in reversedComponents.reversed() {
            switch component {
            case .field(let name) where Self.isIdentifier(name): text += ".\(name)"
            case .field(let name): text += "[\(Self.quoted(Array(name.utf8)))]"
            case .index(let number): text += "[\(number)]"
            case .rendered(let key): text += key
            }
        }
        return text
    }

    /// A Lua string literal for `bytes`: printable text as is, anything else as `\xNN`,
    /// except UTF-8 beyond ASCII when the bytes are valid UTF-8.
    static func quoted(_ bytes: [UInt8]) -> String {
        let keepsUnicode = String(validating: bytes, as: UTF8.self) != nil
        var literal: [UInt8] = [UInt8(ascii: "\"")]
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"):
                literal += [UInt8(ascii: "\\"), byte]
            case 0x20..<0x7F:
                literal.append(byte)
            case 0x80... where keepsUnicode:
                literal.append(byte)
            default:
                let digits = Array("0123456789abcdef".utf8)
                literal += [UInt8(ascii: "\\"), UInt8(ascii: "x"), digits[Int(byte >> 4)], digits[Int(byte & 0xF)]]
            }
        }
        literal.append(UInt8(ascii: "\""))
        return String(decoding: literal, as: UTF8.self)
    }

    private static func isIdentifier(_ text: String) -> Bool {
        guard let first = text.utf8.first, first == UInt8(ascii: "_") || isLetter(first) else { return false }
        return text.utf8.allSatisfy { $0 == UInt8(ascii: "_") || isLetter($0) || (0x30...0x39).contains($0) }
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
    }
}
