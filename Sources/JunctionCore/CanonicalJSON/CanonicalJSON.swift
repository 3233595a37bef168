/// Canonical JSON: the form a bundle's manifest, route table and tests take inside an
/// artifact, so that the same values always give the same bytes, and a device reads them
/// without a YAML parser.
///
/// Written: objects with keys sorted by their UTF-8 bytes, no whitespace, strings escaped
/// only where JSON requires (`"`, `\`, and control characters, as `\n` or `\u001f`),
/// integers as integers and floats in their shortest form that reads back to the same
/// double, always with a `.` or an exponent (`5.0`, `1e-7`). So ``RuleValue/int(_:)``
/// `5` and ``RuleValue/double(_:)`` `5.0` stay apart, as they do in Lua.
///
/// Read: RFC 8259, UTF-8 only, strictly — no duplicate keys, comments, trailing commas,
/// leading zeros, `NaN` or byte-order mark — within ``CanonicalJSONLimits``. A number
/// without a fraction or an exponent that fits `Int64` is an integer; any other is a
/// float.
///
/// The value model is ``RuleValue``: `null` is `.nil`, `[]` is `.array([])`, `{}` is
/// `.table([:])`. What JSON cannot hold is refused when writing, with its path: NaN and
/// the infinities, and `.bytes` (text that is not UTF-8).
public enum CanonicalJSON {
    /// The canonical text of `value`.
    /// - Parameters:
    ///   - value: The value.
    ///   - file: The name errors give the document.
    /// - Returns: The UTF-8 bytes.
    /// - Throws: `CanonicalJSONError` at the path of a NaN, an infinity, a `.bytes` value
    ///   or nesting deeper than ``CanonicalJSONLimits/maximumDepth``.
    public static func encode(_ value: RuleValue, file: String = "") throws(CanonicalJSONError) -> [UInt8] {
        var writer = CanonicalJSONWriter(file: file)
        try writer.write(value, depth: 0)
        return writer.bytes
    }

    /// Reads JSON text.
    /// - Parameters:
    ///   - bytes: The text, UTF-8.
    ///   - file: The name errors give the document.
    ///   - limits: What is accepted at most.
    /// - Returns: The value.
    /// - Throws: `CanonicalJSONError` at the byte where the text stops being strict JSON
    ///   or exceeds a limit.
    public static func decode(
        _ bytes: [UInt8], file: String = "", limits: CanonicalJSONLimits = .default
    ) throws(CanonicalJSONError) -> RuleValue {
        var reader = CanonicalJSONReader(bytes: bytes, file: file, limits: limits)
        return try reader.readDocument()
    }
}
