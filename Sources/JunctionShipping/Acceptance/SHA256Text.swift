import Crypto

/// SHA-256 in lowercase hex: an artifact's identity, the names of the store's files, and
/// what both are checked against.
enum SHA256Text {
    /// The SHA-256 of `bytes`, 64 lowercase hex digits.
    static func of(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(64)
        for byte in SHA256.hash(data: bytes) {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0f)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}
