public import Foundation

extension ChannelPublisher {
    /// What a publish asks for: the seq, the dates, the rollout, the kill switch, and which
    /// of the rules' guards it lifts.
    public struct Options: Sendable, Hashable {
        /// Which seq the new pointer takes.
        public enum Seq: Sendable, Hashable {
            /// The one after the channel's current seq in the key's epoch (1 on a new channel
            /// or a new epoch).
            case next
            /// This one, from 1 to ``ChannelPointer/maximumSeq``: it must be greater than
            /// the current seq, and at most ``ChannelPublisher/maximumSeqStep`` past it unless
            /// ``Options/allowsSeqJump``.
            case exactly(UInt64)
        }

        /// When the pointer is published.
        public var created: Date
        /// Which seq the pointer takes; ``Seq/next`` by default.
        public var seq: Seq
        /// Whether ``Seq/exactly(_:)`` may go more than ``ChannelPublisher/maximumSeqStep``
        /// past the current seq.
        public var allowsSeqJump: Bool
        /// Whether a current pointer that does not verify is replaced; only with
        /// ``Seq/exactly(_:)``, since there is no verified seq to count on from.
        public var replacesUnverifiedPointer: Bool
        /// When the pointer expires; `nil` for the artifact's expiry, which it may not pass.
        public var expires: Date?
        /// The share of devices that take the artifact, from 0 to 100.
        public var rolloutPercent: Double
        /// The rollout's salt; `nil` to keep the current pointer's while it names the same
        /// artifact, else to draw a new one.
        public var salt: String?
        /// Whether devices are told to fall back to their embedded bundle.
        public var pinsEmbedded: Bool

        /// Options; each guard in place unless lifted.
        /// - Parameters:
        ///   - created: When the pointer is published.
        ///   - seq: Which seq the pointer takes.
        ///   - allowsSeqJump: Whether an explicit seq may jump past the step.
        ///   - replacesUnverifiedPointer: Whether an explicit seq replaces a current pointer that does not verify.
        ///   - expires: When the pointer expires; the artifact's expiry when `nil`.
        ///   - rolloutPercent: The share of devices, 0 to 100.
        ///   - salt: The rollout's salt; kept or drawn when `nil`.
        ///   - pinsEmbedded: The kill switch.
        public init(
            created: Date, seq: Seq = .next, allowsSeqJump: Bool = false, replacesUnverifiedPointer: Bool = false,
            expires: Date? = nil, rolloutPercent: Double = 100, salt: String? = nil, pinsEmbedded: Bool = false
        ) {
            self.created = created
            self.seq = seq
            self.allowsSeqJump = allowsSeqJump
            self.replacesUnverifiedPointer = replacesUnverifiedPointer
            self.expires = expires
            self.rolloutPercent = rolloutPercent
            self.salt = salt
            self.pinsEmbedded = pinsEmbedded
        }
    }
}
