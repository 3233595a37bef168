extension PointerError {
    /// The kind of a ``PointerError``: an open set of values, so new kinds can be added
    /// without breaking code that switches over the known ones.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        /// The code's name as printed (`badSignature`).
        public let name: String

        private init(_ name: String) {
            self.name = name
        }

        /// The name, as printed before a refusal's message.
        public var description: String { name }

        /// The pointer is larger than ``ChannelPointer/maximumBytes``; nothing of it was read.
        public static let oversize = Code("oversize")

        /// The bytes are not the canonical JSON of a signed pointer with every field valid.
        public static let malformed = Code("malformed")

        /// The signed fields give a format version this reader does not know.
        public static let unsupportedFormat = Code("unsupportedFormat")

        /// The pointer carries no signature.
        public static let unsigned = Code("unsigned")

        /// The pointer is signed by a key that is not in the keyring, or is being signed with
        /// a key other than the one it names.
        public static let unknownKey = Code("unknownKey")

        /// The signature does not verify with the key the pointer names.
        public static let badSignature = Code("badSignature")

        /// The pointer's `seq` or `epoch` is above ``ChannelPointer/maximumSeq`` (2⁵³ − 1):
        /// a device that took it could never take another pointer of that epoch.
        public static let seqTooLarge = Code("seqTooLarge")

        /// The pointer's `epoch` is not the epoch its key is trusted for
        /// (``VerificationKey/epoch``): a key signs pointers of its own epoch only, so a
        /// retired key cannot move devices to a new epoch, nor a key of a new epoch sign for
        /// an old one.
        public static let wrongEpoch = Code("wrongEpoch")
    }
}
