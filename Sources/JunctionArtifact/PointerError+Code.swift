public import JunctionCore

/// The codes of ``PointerError``: an open set, so new kinds can be added without breaking code that
/// switches over the known ones.
extension ErrorCode where Domain == PointerErrorDomain {
    /// The pointer is larger than ``ChannelPointer/maximumBytes``; nothing of it was read.
    public static var oversize: Self { Self("oversize") }

    /// The bytes are not the canonical JSON of a signed pointer with every field valid.
    public static var malformed: Self { Self("malformed") }

    /// The signed fields give a format version this reader does not know.
    public static var unsupportedFormat: Self { Self("unsupportedFormat") }

    /// The pointer carries no signature.
    public static var unsigned: Self { Self("unsigned") }

    /// The pointer is signed by a key that is not in the keyring, or is being signed with
    /// a key other than the one it names.
    public static var unknownKey: Self { Self("unknownKey") }

    /// The signature does not verify with the key the pointer names.
    public static var badSignature: Self { Self("badSignature") }

    /// The pointer's `seq` or `epoch` is above ``ChannelPointer/maximumSeq`` (2⁵³ − 1):
    /// a device that took it could never take another pointer of that epoch.
    public static var seqTooLarge: Self { Self("seqTooLarge") }

    /// The pointer's `epoch` is not the epoch its key is trusted for
    /// (``VerificationKey/epoch``): a key signs pointers of its own epoch only, so a
    /// retired key cannot move devices to a new epoch, nor a key of a new epoch sign for
    /// an old one.
    public static var wrongEpoch: Self { Self("wrongEpoch") }
}
