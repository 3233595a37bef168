import Crypto
public import Foundation

/// A verified `.jbundle`: its exact bytes, with a header whose every field, member hash and
/// signature has been checked. The only ways to get one are ``init(verifying:keyring:at:limits:)``
/// and ``init(verifying:keyring:dates:limits:)`` (and, inside the package, re-opening bytes
/// verified so before).
public struct Artifact: Sendable {
    /// The exact bytes that were verified; persist these, never a re-serialisation.
    public let bytes: [UInt8]

    /// The header, signed and checked.
    public let header: ArtifactHeader

    /// The 64-byte signature.
    public var signature: ArraySlice<UInt8> { bytes[(bytes.count - 64)...] }

    private let ranges: [String: Range<Int>]

    /// Verifies `bytes` as an artifact signed by a key of `keyring` and valid at `now`.
    ///
    /// In order: the caps of `limits` and the structure (prefix, header, where the signature
    /// lies), the key the header names, the signature over every byte before it, the
    /// header's rules (paths, kinds, duplicates, completeness), the dates, and last each
    /// member's SHA-256, hashed once.
    /// - Parameters:
    ///   - bytes: the artifact, in memory.
    ///   - keyring: the keys to trust; an artifact naming any other key is refused.
    ///   - now: the time to check `created` and `expires` against (the time the update started).
    ///   - limits: the caps.
    /// - Throws: ``ArtifactError`` with the reason for the refusal.
    public init(
        verifying bytes: [UInt8], keyring: Keyring, at now: Date, limits: ArtifactLimits = .default
    ) throws(ArtifactError) {
        try self.init(verifying: bytes, keyring: keyring, dates: .at(now), limits: limits)
    }

    /// Verifies `bytes` as an artifact signed by a key of `keyring`, its dates checked as
    /// `dates` says: ``init(verifying:keyring:at:limits:)`` with ``ArtifactDateCheck/at(_:)``,
    /// or every check but the dates with ``ArtifactDateCheck/skipped``.
    /// - Parameters:
    ///   - bytes: the artifact, in memory.
    ///   - keyring: the keys to trust; an artifact naming any other key is refused.
    ///   - dates: whether `created` and `expires` are checked, and against what time.
    ///   - limits: the caps.
    /// - Throws: ``ArtifactError`` with the reason for the refusal.
    public init(
        verifying bytes: [UInt8], keyring: Keyring, dates: ArtifactDateCheck, limits: ArtifactLimits = .default
    ) throws(ArtifactError) {
        try self.init(verifying: bytes, keyring: keyring, dates: dates, limits: limits, verifiedBefore: false)
    }

    /// ``init(verifying:keyring:dates:limits:)``; with `verifiedBefore`, every check but the
    /// signature, the members' hashes and the header's canonical byte form — for bytes whose
    /// SHA-256 the caller has checked and bound, under a secret of its own, to a full
    /// verification it made before with this keyring and these limits (a device's acceptance
    /// stamp): the same bytes, so the same signature, members and header.
    package init(
        verifying bytes: [UInt8], keyring: Keyring, dates: ArtifactDateCheck, limits: ArtifactLimits,
        verifiedBefore: Bool
    ) throws(ArtifactError) {
        let layout = try ArtifactLayout(bytes, limits: limits, canonicalFormCheckedBefore: verifiedBefore)
        guard let key = keyring.key(id: layout.fields.keyID) else {
            throw ArtifactError(
                .unknownKey,
                "the artifact is signed by key \(layout.fields.keyID), which is not in the keyring (\(keyring.keyIDs.joined(separator: ", ")))"
            )
        }
        guard verifiedBefore || key.isValidSignature(bytes[layout.signature], for: bytes[layout.signed]) else {
            throw ArtifactError(
                .badSignature,
                "the signature at byte \(layout.signature.lowerBound) does not verify with key \(key.keyID)")
        }
        let header = try layout.fields.validated(limits: limits)
        if case .at(let now) = dates {
            try Self.checkDates(header, at: now, limits: limits)
        }
        if !verifiedBefore { try Self.checkHashes(bytes, header: header, ranges: layout.members) }
        self.bytes = bytes
        self.header = header
        self.ranges = Dictionary(uniqueKeysWithValues: zip(header.members.map(\.path), layout.members))
    }

    private static func checkDates(_ header: ArtifactHeader, at now: Date, limits: ArtifactLimits)
        throws(ArtifactError)
    {
        if now >= header.expires {
            throw ArtifactError(
                .expired, "the artifact expired at \(RFC3339.format(header.expires)); it is \(RFC3339.format(now))")
        }
        if header.created > now.addingTimeInterval(Self.seconds(limits.clockSkew)) {
            throw ArtifactError(
                .notYetValid,
                "the artifact was created at \(RFC3339.format(header.created)), later than \(RFC3339.format(now)) plus the allowed skew of \(limits.clockSkew)"
            )
        }
    }

    /// The bytes of the member at `path`, or `nil` when there is none.
    public func contents(of path: String) -> ArraySlice<UInt8>? {
        ranges[path].map { bytes[$0] }
    }

    /// The header of `bytes` and whether each member's bytes match their hash, without a
    /// key: for `junction bundle inspect`. The signature is not checked, nor are the dates.
    /// - Throws: ``ArtifactError`` when the structure or the header's rules are broken.
    public static func inspect(_ bytes: [UInt8], limits: ArtifactLimits = .default) throws(ArtifactError)
        -> ArtifactInspection
    {
        let layout = try ArtifactLayout(bytes, limits: limits)
        let header = try layout.fields.validated(limits: limits)
        var mismatches: [String] = []
        for (member, range) in zip(header.members, layout.members)
        where Hex.encode(SHA256.hash(data: bytes[range])) != member.sha256 {
            mismatches.append(member.path)
        }
        return ArtifactInspection(
            header: header, hashMismatches: mismatches, signature: Array(bytes[layout.signature]), length: bytes.count)
    }

    private static func checkHashes(_ bytes: [UInt8], header: ArtifactHeader, ranges: [Range<Int>])
        throws(ArtifactError)
    {
        for (member, range) in zip(header.members, ranges) {
            let digest = Hex.encode(SHA256.hash(data: bytes[range]))
            guard digest == member.sha256 else {
                throw ArtifactError(
                    .memberHashMismatch,
                    "member \(HeaderFields.quoted(member.path)) (bytes \(range.lowerBound)..<\(range.upperBound)) has SHA-256 \(digest), not \(member.sha256) as the header says"
                )
            }
        }
    }

    private static func seconds(_ duration: Duration) -> TimeInterval {
        let (seconds, attoseconds) = duration.components
        return TimeInterval(seconds) + TimeInterval(attoseconds) / 1e18
    }
}
