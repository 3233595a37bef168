/// A URI that could not be parsed: what was wrong and where.
///
/// `offset` counts UTF-8 code units from the start of the input (0-based), so a tool can
/// underline the offending text. New kinds of problem may be added; switch over
/// `code` with a `default` branch.
public struct URIError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of problem, as an open set of values.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        private enum Value: String, Sendable, Hashable {
            case invalidScheme = "invalid scheme"
            case invalidPercentEscape = "invalid percent-escape"
            case invalidUTF8 = "percent-escapes that do not decode to UTF-8"
            case controlCharacter = "control character"
            case disallowedCharacter = "character not allowed here by RFC 3986"
            case invalidHost = "invalid host"
            case invalidIPv6 = "invalid IPv6 address"
            case invalidPort = "invalid port"
            case invalidPath = "invalid path"
            case tooLong = "URI too long"
        }

        private let value: Value
        private init(_ value: Value) { self.value = value }

        /// A scheme that does not match `ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )`.
        public static let invalidScheme = Code(.invalidScheme)
        /// A `%` not followed by two hexadecimal digits.
        public static let invalidPercentEscape = Code(.invalidPercentEscape)
        /// Percent-escapes whose bytes are not valid UTF-8.
        public static let invalidUTF8 = Code(.invalidUTF8)
        /// A C0 control character or DEL, which no URI may contain.
        public static let controlCharacter = Code(.controlCharacter)
        /// A character outside RFC 3986's set for its component (strict parsing only).
        public static let disallowedCharacter = Code(.disallowedCharacter)
        /// A host that is not a registered name, an IPv4 address or an IP literal.
        public static let invalidHost = Code(.invalidHost)
        /// A bracketed IP literal that is not a valid IPv6 (or IPvFuture) address.
        public static let invalidIPv6 = Code(.invalidIPv6)
        /// A port that is not a decimal number from 0 to 65535.
        public static let invalidPort = Code(.invalidPort)
        /// A path that cannot stand where it is (e.g. `//` at the start of a path without authority).
        public static let invalidPath = Code(.invalidPath)
        /// An input longer than `URI.maximumLength`.
        public static let tooLong = Code(.tooLong)

        /// The problem in words.
        public var description: String { value.rawValue }
    }

    /// The kind of problem.
    public let code: Code
    /// Where the problem starts, in UTF-8 code units from the start of `input`.
    public let offset: Int
    /// The text that failed to parse.
    public let input: String
    /// Extra detail, e.g. the offending characters.
    public let detail: String

    /// Creates an error.
    /// - Parameters:
    ///   - code: The kind of problem.
    ///   - offset: Where it starts, in UTF-8 code units.
    ///   - input: The text that failed to parse.
    ///   - detail: Extra detail for the message.
    public init(_ code: Code, at offset: Int, in input: String, detail: String = "") {
        self.code = code
        self.offset = offset
        self.input = input
        self.detail = detail
    }

    /// `invalid percent-escape "%G1" at offset 12 in "myapp://a/%G1"`.
    public var description: String {
        let shown = input.utf8.count > 200 ? String(decoding: input.utf8.prefix(200), as: UTF8.self) + "…" : input
        let what = detail.isEmpty ? code.description : "\(code) \(detail)"
        return "\(what) at offset \(offset) in \"\(Self.escapeControls(shown))\""
    }

    /// Control characters are shown escaped so a hostile URL cannot forge log lines.
    static func escapeControls(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            if scalar.value < 0x20 || scalar.value == 0x7F {
                out += "\\u{\(String(scalar.value, radix: 16))}"
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
