extension PublishError {
    /// The kind of a ``PublishError``: an open set of values, so new kinds can be added
    /// without breaking code that switches over the known ones.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        /// The code's name as printed (`seqNotGreater`).
        public let name: String

        private init(_ name: String) {
            self.name = name
        }

        /// The name, as printed before a refusal's message.
        public var description: String { name }

        /// The artifact is signed by another key than the one publishing it.
        public static let foreignArtifact = Code("foreignArtifact")

        /// The pointer would expire after its artifact: a pointer never outlives what it names.
        public static let outlivesArtifact = Code("outlivesArtifact")

        /// The channel's current pointer does not verify with the publisher's keys, or names
        /// another channel, and replacing it was not asked for with an explicit seq.
        public static let unverifiedPointer = Code("unverifiedPointer")

        /// The channel is at a later epoch than the publishing key signs: devices that took
        /// it never accept a pointer of an earlier one.
        public static let earlierEpoch = Code("earlierEpoch")

        /// The channel's seq is ``ChannelPointer/maximumSeq`` in the key's epoch: no seq follows.
        public static let seqExhausted = Code("seqExhausted")

        /// The seq asked for is not greater than the channel's current one in the key's epoch.
        public static let seqNotGreater = Code("seqNotGreater")

        /// The seq asked for is more than ``ChannelPublisher/maximumSeqStep`` past the
        /// channel's current one, and the jump was not allowed.
        public static let seqJump = Code("seqJump")

        /// The options do not make a valid pointer (a rollout percent or salt, or dates out of
        /// order); the message has the ``PointerError``.
        public static let invalidPointer = Code("invalidPointer")

        /// The site holds other bytes under the artifact's object name; objects are immutable.
        public static let objectDiffers = Code("objectDiffers")
    }
}
