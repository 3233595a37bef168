import Crypto
import Foundation

/// The rules of publishing to a channel: given what the site holds and what is asked, the
/// next signed pointer — or the rule it would break.
///
/// - The artifact is signed by the publishing key.
/// - The pointer expires with the artifact by default, and never after it.
/// - The current pointer must verify with the publishing key or one of the previous keys,
///   and name the channel; one that does not is replaced only when asked, with an explicit seq.
/// - The seq only goes up within the key's epoch: the next one by default; an explicit one
///   greater than the current, and at most ``maximumSeqStep`` past it unless allowed. A key
///   of a later epoch starts the seq afresh; a key of an earlier epoch than the channel's
///   publishes nothing.
/// - The rollout's salt is kept while the pointer names the same artifact, so raising the
///   percent keeps every device that has it; another artifact draws a new one, unless a
///   salt is given.
/// - An object is immutable: the site may hold the artifact's name only with its bytes.
///
/// Pure but for the random bytes of a new salt: it reads no file and no clock, so each rule
/// is a table test; `junction bundle publish` reads the site, asks, and writes what it is told.
public struct ChannelPublisher: Sendable {
    /// How far past the channel's current seq an explicit seq may go without
    /// ``Options/allowsSeqJump``: a device that takes a seq never takes a lower one of its
    /// epoch again, so a slip of the finger (a digit too many) would spend seqs no publish
    /// can get back.
    public static let maximumSeqStep: UInt64 = 1_000

    /// The channel's name.
    public let channel: String
    /// The key that signs the artifact and the new pointer.
    public let key: SigningKey
    /// The keys the current pointer may be signed by: ``key``'s and the previous ones.
    public let keyring: Keyring

    /// A publisher for `channel`.
    /// - Parameters:
    ///   - channel: The channel's name; it must pass ``ChannelPointer/isChannelName(_:)``.
    ///   - key: The publishing key.
    ///   - previousKeys: Keys the current pointer may be signed by (the key before a rotation).
    public init(channel: String, key: SigningKey, previousKeys: [VerificationKey] = []) {
        precondition(ChannelPointer.isChannelName(channel), "not a channel name: \(channel.prefix(80))")
        self.channel = channel
        self.key = key
        self.keyring = Keyring([key.publicKey] + previousKeys)
    }

    /// `channels/NAME.json`: where the channel's pointer is, relative to the site.
    public var pointerPath: String { "channels/" + channel + ".json" }

    /// `objects/<sha256>.jbundle`: where `artifact` is, relative to the site.
    /// - Parameter artifact: The artifact.
    /// - Returns: The object's path.
    public static func objectPath(for artifact: Artifact) -> String {
        "objects/" + sha256(artifact) + ".jbundle"
    }

    /// The next pointer for `artifact`, with a new salt drawn from the system's generator
    /// when one is needed.
    /// - Parameters:
    ///   - artifact: The verified artifact to publish.
    ///   - site: What the site holds now.
    ///   - options: What is asked.
    /// - Returns: The pointer, signed, and where it and the object go.
    /// - Throws: ``PublishError`` naming the rule and what to do.
    public func publish(_ artifact: Artifact, to site: Site, options: Options) throws(PublishError) -> Publication {
        var generator = SystemRandomNumberGenerator()
        return try publish(artifact, to: site, options: options, using: &generator)
    }

    /// The next pointer for `artifact`; in the order of the rules above.
    /// - Parameters:
    ///   - artifact: The verified artifact to publish.
    ///   - site: What the site holds now.
    ///   - options: What is asked.
    ///   - generator: Where a new salt's 8 bytes come from.
    /// - Returns: The pointer, signed, and where it and the object go.
    /// - Throws: ``PublishError`` naming the rule and what to do.
    public func publish(
        _ artifact: Artifact, to site: Site, options: Options, using generator: inout some RandomNumberGenerator
    ) throws(PublishError) -> Publication {
        guard artifact.header.keyID == key.keyID else {
            throw PublishError(
                .foreignArtifact,
                "the artifact is signed by key \(artifact.header.keyID), but published with key \(key.keyID); "
                    + "publish it with the key that signed it")
        }
        let expires = options.expires ?? artifact.header.expires
        guard expires <= artifact.header.expires else {
            throw PublishError(
                .outlivesArtifact,
                "--expires \(RFC3339.format(expires)) is later than the artifact's expiry "
                    + "\(RFC3339.format(artifact.header.expires)); a pointer never outlives its artifact")
        }
        let (current, replacedProblem) = try currentPointer(site.pointer, options: options)
        let seq = try nextSeq(after: current, requested: options.seq, allowsJump: options.allowsSeqJump)
        let sha256 = Self.sha256(artifact)
        // Same artifact, same salt: a higher percent then only adds devices.
        let keptSalt = current.flatMap { $0.artifactSHA256 == sha256 ? $0.rollout.salt : nil }
        let pointer: ChannelPointer
        let signed: [UInt8]
        do {
            pointer = try ChannelPointer(
                channel: channel, seq: seq, epoch: key.epoch, artifactSHA256: sha256,
                artifactLength: artifact.bytes.count, created: options.created, expires: expires,
                rollout: ChannelPointer.Rollout(
                    percent: options.rolloutPercent, salt: options.salt ?? keptSalt ?? Self.salt(using: &generator)),
                pinEmbedded: options.pinsEmbedded, keyID: key.keyID)
            signed = try pointer.signed(with: key)
        } catch {
            throw PublishError(.invalidPointer, "the pointer cannot be made: \(error)")
        }
        if let object = site.object, object != artifact.bytes {
            throw PublishError(
                .objectDiffers,
                "the object exists with other bytes than the artifact published, whose SHA-256 names it; objects "
                    + "are immutable, so it was tampered with: find out how, remove it, and publish again")
        }
        return Publication(
            pointer: pointer, signedPointer: signed, pointerPath: pointerPath,
            objectPath: Self.objectPath(for: artifact),
            writesObject: site.object == nil, replacedPointerProblem: replacedProblem)
    }

    /// The channel's current pointer, verified with ``keyring``: `nil` when there is none or
    /// it is replaced, with the problem that made it replaceable.
    private func currentPointer(_ bytes: [UInt8]?, options: Options) throws(PublishError) -> (
        ChannelPointer?, String?
    ) {
        guard let bytes else { return (nil, nil) }
        let problem: String
        do {
            let pointer = try ChannelPointer(verifying: bytes, keyring: keyring)
            if pointer.channel == channel { return (pointer, nil) }
            problem = "it names channel \"\(pointer.channel)\", not \"\(channel)\""
        } catch {
            problem = "\(error)"
        }
        if options.replacesUnverifiedPointer, case .exactly = options.seq { return (nil, problem) }
        throw PublishError(
            .unverifiedPointer,
            "the current pointer does not verify: \(problem); find out who wrote it, then give --seq N --force "
                + "to replace it")
    }

    /// The new pointer's seq in the key's epoch: `requested`, or the one after the channel's
    /// current seq — counted from 0 when `current` is of an earlier epoch (or there is none),
    /// since a higher epoch starts the seq afresh.
    private func nextSeq(after current: ChannelPointer?, requested: Options.Seq, allowsJump: Bool)
        throws(PublishError) -> UInt64
    {
        let epoch = key.epoch
        if let current, current.epoch > epoch {
            throw PublishError(
                .earlierEpoch,
                "the channel is at epoch \(current.epoch) (seq \(current.seq)), but the key signs epoch \(epoch): "
                    + "devices that took epoch \(current.epoch) never accept a pointer of an earlier one; publish "
                    + "with the key of epoch \(current.epoch) or later")
        }
        let base = current.flatMap { $0.epoch == epoch ? $0.seq : nil } ?? 0
        let inEpoch = epoch > 0 ? " of epoch \(epoch)" : ""
        guard case .exactly(let seq) = requested else {
            guard base < ChannelPointer.maximumSeq else {
                throw PublishError(
                    .seqExhausted,
                    "the channel's seq is \(base), the largest there is\(inEpoch); devices that took it accept no "
                        + "other pointer of this epoch: make a key of epoch \(epoch + 1) (junction keygen --epoch "
                        + "\(epoch + 1)), add its public key to the apps, and publish with it (docs/artifacts.md, "
                        + "\"Seq epochs\")")
            }
            return base + 1
        }
        guard seq > base else {
            throw PublishError(
                .seqNotGreater,
                "--seq \(seq) is not greater than the channel's current seq \(base)\(inEpoch); a channel's seq only "
                    + "goes up (a rollback is a new, higher seq)")
        }
        if seq - base > Self.maximumSeqStep && !allowsJump {
            let now = current.map { "current seq \(base)\($0.epoch == epoch ? inEpoch : " (a new epoch starts at 0)")" }
            // Above the largest seq, the pointer cannot be made: what follows it would be negative.
            let left = ChannelPointer.maximumSeq - min(seq, ChannelPointer.maximumSeq)
            throw PublishError(
                .seqJump,
                "--seq \(seq) is \(seq - base) past the channel's \(now ?? "seq 0 (it has no pointer yet)"), more "
                    + "than the \(Self.maximumSeqStep) a publish may jump: a device that takes it never again "
                    + "accepts a seq of \(seq) or lower\(inEpoch), leaving \(left) for every publish after it; give "
                    + "--allow-seq-jump if that is what you mean")
        }
        return seq
    }

    /// The artifact's SHA-256, lowercase hex: its object name.
    private static func sha256(_ artifact: Artifact) -> String {
        Hex.encode(SHA256.hash(data: artifact.bytes))
    }

    /// 16 random lowercase hex digits.
    private static func salt(using generator: inout some RandomNumberGenerator) -> String {
        Hex.encode((0..<8).map { _ in UInt8.random(in: 0...255, using: &generator) })
    }
}
