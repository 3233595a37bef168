import Crypto

extension UpdateIdentity {
    /// The identity of `artifact` published under `seq`: its SHA-256 computed here.
    /// - Parameters:
    ///   - seq: The pointer's sequence number (0 for the bundle embedded in the app).
    ///   - artifact: The artifact's bytes.
    public init(seq: UInt64, artifact: [UInt8]) {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(64)
        for byte in SHA256.hash(data: artifact) {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        self.init(seq: seq, artifactSHA256: String(decoding: text, as: UTF8.self))
    }
}
