import Crypto

/// SHA-256 in lowercase hex: the names of the store's files, and what it checks them against.
enum StoreDigest {
    /// The SHA-256 of `bytes`, 64 lowercase hex digits.
    static func sha256(_ bytes: [UInt8]) -> String {
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
