/// Percent-encoding of text for use inside a URI component (RFC 3986 §2.1), and its
/// validated inverse.
package enum PercentEncoding {
    /// Encodes every byte of `text` except RFC 3986's unreserved characters
    /// (`A–Z a–z 0–9 - . _ ~`), so the result is safe in any component — a path
    /// segment, a query name or value, a fragment.
    /// - Parameter text: Any text.
    /// - Returns: The encoded text, upper-case hex (`a b/c` → `a%20b%2Fc`).
    package static func encode(_ text: String) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            if Bytes.isAlpha(byte) || Bytes.isDigit(byte) || byte == UInt8(ascii: "-") || byte == Bytes.dot
                || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "~")
            {
                out.append(byte)
            } else {
                out += [Bytes.percent, hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Decodes `text` once.
    /// - Parameters:
    ///   - text: Percent-encoded text.
    ///   - plusAsSpace: Whether `+` means a space (form encoding).
    /// - Returns: The decoded text.
    /// - Throws: `URIError` for a `%` not followed by two hex digits, or escapes that
    ///   do not decode to UTF-8, with the offset.
    package static func decode(_ text: String, plusAsSpace: Bool = false) throws(URIError) -> String {
        var text = text
        let result: Result<String, URIError> = text.withUTF8 { bytes in
            if let (offset, problem) = PercentDecoding.firstProblem(in: bytes, 0..<bytes.count) {
                let code: URIError.Code = problem == .invalidEscape ? .invalidPercentEscape : .invalidUTF8
                let shown = String(
                    decoding: UnsafeBufferPointer(
                        rebasing: bytes[offset..<min(offset + (problem == .invalidEscape ? 3 : 12), bytes.count)]),
                    as: UTF8.self)
                let detail = problem == .invalidEscape ? "\"\(shown)\"" : "from \"\(shown)\""
                return .failure(URIError(code, at: offset, in: String(decoding: bytes, as: UTF8.self), detail: detail))
            }
            return .success(PercentDecoding.decodedString(bytes, plusAsSpace: plusAsSpace))
        }
        return try result.get()
    }
}
