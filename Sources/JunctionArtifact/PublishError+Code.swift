public import JunctionCore

/// The codes of ``PublishError``: an open set, so new kinds can be added without breaking code that
/// switches over the known ones.
extension ErrorCode where Domain == PublishErrorDomain {
    /// The artifact is signed by another key than the one publishing it.
    public static var foreignArtifact: Self { Self("foreignArtifact") }

    /// The pointer would expire after its artifact: a pointer never outlives what it names.
    public static var outlivesArtifact: Self { Self("outlivesArtifact") }

    /// The channel's current pointer does not verify with the publisher's keys, or names
    /// another channel, and replacing it was not asked for with an explicit seq.
    public static var unverifiedPointer: Self { Self("unverifiedPointer") }

    /// The channel is at a later epoch than the publishing key signs: devices that took
    /// it never accept a pointer of an earlier one.
    public static var earlierEpoch: Self { Self("earlierEpoch") }

    /// The channel's seq is ``ChannelPointer/maximumSeq`` in the key's epoch: no seq follows.
    public static var seqExhausted: Self { Self("seqExhausted") }

    /// The seq asked for is not greater than the channel's current one in the key's epoch.
    public static var seqNotGreater: Self { Self("seqNotGreater") }

    /// The seq asked for is more than ``ChannelPublisher/maximumSeqStep`` past the
    /// channel's current one, and the jump was not allowed.
    public static var seqJump: Self { Self("seqJump") }

    /// The options do not make a valid pointer (a rollout percent or salt, or dates out of
    /// order); the message has the ``PointerError``.
    public static var invalidPointer: Self { Self("invalidPointer") }

    /// The site holds other bytes under the artifact's object name; objects are immutable.
    public static var objectDiffers: Self { Self("objectDiffers") }
}
