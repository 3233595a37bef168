public import JunctionCore

/// The codes of ``ArtifactError``: an open set, so new kinds can be added without breaking code that
/// switches over the known ones.
extension ErrorCode where Domain == ArtifactErrorDomain {
    /// The bytes end before the structure they announce does.
    public static var truncated: Self { Self("truncated") }

    /// The bytes do not start with `JBNDL` and a zero byte.
    public static var badMagic: Self { Self("badMagic") }

    /// The format version is not one this reader knows.
    public static var unsupportedFormat: Self { Self("unsupportedFormat") }

    /// A size is beyond its cap (``ArtifactLimits``): the whole, the header, the member
    /// count or a path.
    public static var oversize: Self { Self("oversize") }

    /// The header is not the canonical JSON of a header with every field valid.
    public static var malformedHeader: Self { Self("malformedHeader") }

    /// The header's key id is not in the keyring.
    public static var unknownKey: Self { Self("unknownKey") }

    /// The signature does not verify with the key the header names.
    public static var badSignature: Self { Self("badSignature") }

    /// The bytes end where the signature should start.
    public static var unsigned: Self { Self("unsigned") }

    /// A member's bytes do not have the SHA-256 the header gives.
    public static var memberHashMismatch: Self { Self("memberHashMismatch") }

    /// The members' lengths do not account for the bytes between header and signature.
    public static var memberLengthMismatch: Self { Self("memberLengthMismatch") }

    /// A member's path breaks a path rule, or its kind's naming rule.
    public static var badPath: Self { Self("badPath") }

    /// Two members have the same path.
    public static var duplicateMember: Self { Self("duplicateMember") }

    /// A member's kind is not `manifest`, `routes`, `tests` or `lua`.
    public static var unknownMemberKind: Self { Self("unknownMemberKind") }

    /// The manifest or the route table is missing.
    public static var missingMember: Self { Self("missingMember") }

    /// The artifact's `expires` is not after the time of the check.
    public static var expired: Self { Self("expired") }

    /// The artifact's `created` is later than the time of the check plus the allowed skew.
    public static var notYetValid: Self { Self("notYetValid") }

    /// A key file is not in the format docs/artifacts.md gives, or names the wrong key id.
    public static var badKeyFile: Self { Self("badKeyFile") }

    /// A key file to be written already exists; keys are never overwritten.
    public static var keyFileExists: Self { Self("keyFileExists") }

    /// A file could not be read or written.
    public static var io: Self { Self("io") }
}
