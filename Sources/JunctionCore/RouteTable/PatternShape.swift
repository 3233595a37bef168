/// One expansion of a pattern as the table compares patterns: parameter names erased,
/// constants folded as the table folds them. Two routes with the same shape could never
/// both be reached.
///
/// Kept as bytes, each part tagged and each text preceded by its length, so that
/// different lists of parts never give the same bytes; hashed in one pass.
struct PatternShape: Hashable {
    private var bytes: [UInt8] = []

    init(scheme: String?, host: String?) {
        bytes.reserveCapacity(64)
        append(tag: "s", scheme)
        append(tag: "h", host)
    }

    /// A constant segment, already folded.
    mutating func appendConstant(_ text: String) {
        append(tag: "=", text)
    }

    /// A parameter of a type, with its regex.
    mutating func appendParameter(_ type: ParameterType, regex: String?) {
        append(tag: ":", type.rawValue)
        append(tag: "(", regex)
    }

    mutating func appendWildcard() {
        bytes.append(UInt8(ascii: "*"))
    }

    mutating func appendCatchAll() {
        bytes.append(UInt8(ascii: "^"))
    }

    /// `tag`, then `-` for no text or the text's length, a space and the text.
    private mutating func append(tag: Unicode.Scalar, _ text: String?) {
        bytes.append(UInt8(ascii: tag))
        guard let text else {
            bytes.append(UInt8(ascii: "-"))
            return
        }
        appendDecimal(text.utf8.count)
        bytes.append(UInt8(ascii: " "))
        bytes.append(contentsOf: text.utf8)
    }

    /// `value` in decimal digits, without formatting a `String`.
    private mutating func appendDecimal(_ value: Int) {
        if value >= 10 { appendDecimal(value / 10) }
        bytes.append(UInt8(ascii: "0") + UInt8(value % 10))
    }

    static func == (lhs: PatternShape, rhs: PatternShape) -> Bool {
        lhs.bytes == rhs.bytes
    }

    func hash(into hasher: inout Hasher) {
        // `[UInt8]`'s own hashing feeds the hasher one byte at a time.
        bytes.withUnsafeBytes { hasher.combine(bytes: $0) }
    }
}
