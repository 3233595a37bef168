public import Foundation

/// What a channel currently serves: the small signed file `channels/NAME.json` that names
/// one artifact by hash and length, under a sequence number that only goes up.
///
/// A device polls the pointer, not the artifact: the pointer says whether anything changed
/// (its `seq`), where the artifact is (`objects/<sha256>.jbundle`, content-addressed and
/// immutable, so it can be cached forever) and how long it may be, so the device can refuse
/// a longer download before paying for it. Every field is under the signature, which is
/// what stops a replay of an older pointer (a lower `seq`), a swap of artifacts under the
/// same `seq`, and a mirror that keeps serving a pointer past its `expires`.
///
/// The file is the canonical JSON (see `CanonicalJSON`) of
/// `{"signature": BASE64, "signed": {…}}`; the signature is Ed25519 over
/// ``signaturePrefix`` followed by the canonical bytes of `signed`. A reader accepts only
/// that exact form, so the bytes signed are exactly bytes of the file and no two files
/// carry the same pointer. docs/artifacts.md gives the fields.
public struct ChannelPointer: Sendable, Hashable {
    /// The format version this reader and writer know.
    public static let format = 1
    /// The largest pointer file read, in bytes; a real one is about 500.
    public static let maximumBytes = 16_384
    /// What the signed bytes start with, so a pointer's signature can never be taken for
    /// an artifact's, or for anything else a key signs.
    public static let signaturePrefix: [UInt8] = Array("junction channel pointer\n".utf8)
    /// The largest `seq` and `epoch`: 2⁵³ − 1, the largest whole number every JSON reader
    /// holds exactly. Anything larger is refused (``PointerError/Code-swift.struct/seqTooLarge``)
    /// when a pointer is made, signed or verified.
    public static let maximumSeq: UInt64 = 9_007_199_254_740_991

    /// The channel's name: 1 to 64 of `a-z 0-9 . _ -`, starting with a letter or digit.
    public let channel: String
    /// The sequence number, from 1 to ``maximumSeq``: strictly greater for every pointer
    /// published on the channel in one ``epoch``.
    public let seq: UInt64
    /// The seq epoch: the epoch of the key that signs it (``SigningKey/epoch``), 0 unless that
    /// key was made for a later one. Devices order pointers by epoch, then seq, so a pointer
    /// of a higher epoch starts the seq afresh — the way back for a channel whose devices
    /// hold a seq too high to go past — while only a key trusted for that epoch can sign it.
    public let epoch: UInt64
    /// The artifact's SHA-256, lowercase hex: also its object name.
    public let artifactSHA256: String
    /// The artifact's length in bytes: a download longer than this is cut off.
    public let artifactLength: Int
    /// When the pointer was published.
    public let created: Date
    /// When devices stop trusting it: a pointer past it is stale, whatever it names.
    public let expires: Date
    /// Which devices take the artifact.
    public let rollout: Rollout
    /// The kill switch: devices that read it fall back to the bundle embedded in the app.
    public let pinEmbedded: Bool
    /// The id of the key that signs it.
    public let keyID: String

    /// A pointer, its fields checked.
    /// - Parameters:
    ///   - channel: The channel's name.
    ///   - seq: The sequence number, at least 1 and at most ``maximumSeq``.
    ///   - epoch: The seq epoch, at most ``maximumSeq``: the signing key's; 0 by default.
    ///   - artifactSHA256: The artifact's SHA-256, 64 lowercase hex digits.
    ///   - artifactLength: The artifact's length in bytes, at least 1.
    ///   - created: When it is published.
    ///   - expires: When it expires; later than `created`.
    ///   - rollout: Which devices take the artifact; everyone by default.
    ///   - pinEmbedded: Whether devices fall back to their embedded bundle.
    ///   - keyID: The id of the key that will sign it (16 lowercase hex digits).
    /// - Throws: ``PointerError``: `seqTooLarge` for a seq or epoch above ``maximumSeq``, else
    ///   `malformed` naming the field that is wrong.
    public init(
        channel: String, seq: UInt64, epoch: UInt64 = 0, artifactSHA256: String, artifactLength: Int, created: Date,
        expires: Date,
        rollout: Rollout = .everyone, pinEmbedded: Bool = false, keyID: String
    ) throws(PointerError) {
        func malformed(_ message: String) -> PointerError { PointerError(.malformed, message) }
        guard Self.isChannelName(channel) else {
            throw malformed(
                "channel: \"\(channel.prefix(80))\" is not a channel name (1 to 64 of a-z 0-9 . _ -, starting with a letter or digit)"
            )
        }
        guard seq >= 1 else { throw malformed("seq: \(seq) is not from 1 to \(Self.maximumSeq)") }
        guard seq <= Self.maximumSeq else {
            throw PointerError(
                .seqTooLarge,
                "seq: \(seq) is above \(Self.maximumSeq) (2^53 - 1), the largest a pointer carries: a device "
                    + "that took it could never accept another pointer in epoch \(epoch)")
        }
        guard epoch <= Self.maximumSeq else {
            throw PointerError(
                .seqTooLarge, "epoch: \(epoch) is above \(Self.maximumSeq) (2^53 - 1), the largest a pointer carries")
        }
        guard Hex.isLowercase(artifactSHA256, count: 64) else {
            throw malformed("artifact.sha256: not 64 lowercase hex digits")
        }
        guard artifactLength >= 1 else { throw malformed("artifact.length: \(artifactLength) is not at least 1") }
        guard expires > created else {
            throw malformed(
                "expires: \(RFC3339.format(expires)) is not after created \(RFC3339.format(created))")
        }
        guard Hex.isLowercase(keyID, count: 16) else { throw malformed("key_id: not 16 lowercase hex digits") }
        self.channel = channel
        self.seq = seq
        self.epoch = epoch
        self.artifactSHA256 = artifactSHA256
        self.artifactLength = artifactLength
        // Whole seconds: what the file can say.
        self.created = Date(timeIntervalSince1970: created.timeIntervalSince1970.rounded(.down))
        self.expires = Date(timeIntervalSince1970: expires.timeIntervalSince1970.rounded(.down))
        self.rollout = rollout
        self.pinEmbedded = pinEmbedded
        self.keyID = keyID
    }

    /// Whether `name` is a channel name: 1 to 64 of `a-z 0-9 . _ -`, the first a letter or digit.
    public static func isChannelName(_ name: String) -> Bool {
        let bytes = Array(name.utf8)
        func isAlphanumeric(_ byte: UInt8) -> Bool { (0x61...0x7A).contains(byte) || (0x30...0x39).contains(byte) }
        guard let first = bytes.first, bytes.count <= 64, isAlphanumeric(first) else { return false }
        return bytes.allSatisfy { isAlphanumeric($0) || $0 == 0x2E || $0 == 0x5F || $0 == 0x2D }
    }
}
