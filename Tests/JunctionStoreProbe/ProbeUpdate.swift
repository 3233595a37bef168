import Crypto
import Junction
import JunctionShipping

/// The update the probe commits for each seq: an artifact of 256 KiB that starts with
/// `artifact N` (large enough that a kill can land inside its write) and a pointer naming
/// seq and hash, so a mix of two updates cannot hash right and read right at once.
enum ProbeUpdate {
    /// The update for `seq`.
    static func make(seq: UInt64) -> StoredUpdate {
        var artifact = Array("artifact \(seq)\n".utf8)
        artifact += (0..<(256 << 10)).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ Int(seq)) }
        let hash = SHA256.hash(data: artifact).map { byte in
            String(byte, radix: 16).count == 1 ? "0" + String(byte, radix: 16) : String(byte, radix: 16)
        }.joined()
        let pointer = Array("{\"artifact\":\"\(hash)\",\"seq\":\(seq)}".utf8)
        return StoredUpdate(
            identity: UpdateIdentity(seq: seq, artifactSHA256: hash), pointer: pointer, artifact: artifact)
    }
}
