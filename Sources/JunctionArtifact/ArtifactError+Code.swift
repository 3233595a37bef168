extension ArtifactError {
    /// The kind of an ``ArtifactError``: an open set of values, so new kinds can be added
    /// without breaking code that switches over the known ones.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        /// The code's name as printed (`badSignature`).
        public let name: String

        private init(_ name: String) {
            self.name = name
        }

        /// The name, as printed before a refusal's message.
        public var description: String { name }

        /// The bytes end before the structure they announce does.
        public static let truncated = Code("truncated")

        /// The bytes do not start with `JBNDL` and a zero byte.
        public static let badMagic = Code("badMagic")

        /// The format version is not one this reader knows.
        public static let unsupportedFormat = Code("unsupportedFormat")

        /// A size is beyond its cap (``ArtifactLimits``): the whole, the header, the member
        /// count or a path.
        public static let oversize = Code("oversize")

        /// The header is not the canonical JSON of a header with every field valid.
        public static let malformedHeader = Code("malformedHeader")

        /// The header's key id is not in the keyring.
        public static let unknownKey = Code("unknownKey")

        /// The signature does not verify with the key the header names.
        public static let badSignature = Code("badSignature")

        /// The bytes end where the signature should start.
        public static let unsigned = Code("unsigned")

        /// A member's bytes do not have the SHA-256 the header gives.
        public static let memberHashMismatch = Code("memberHashMismatch")

        /// The members' lengths do not account for the bytes between header and signature.
        public static let memberLengthMismatch = Code("memberLengthMismatch")

        /// A member's path breaks a path rule, or its kind's naming rule.
        public static let badPath = Code("badPath")

        /// Two members have the same path.
        public static let duplicateMember = Code("duplicateMember")

        /// A member's kind is not `manifest`, `routes`, `tests` or `lua`.
        public static let unknownMemberKind = Code("unknownMemberKind")

        /// The manifest or the route table is missing.
        public static let missingMember = Code("missingMember")

        /// The artifact's `expires` is not after the time of the check.
        public static let expired = Code("expired")

        /// The artifact's `created` is later than the time of the check plus the allowed skew.
        public static let notYetValid = Code("notYetValid")

        /// A key file is not in the format docs/artifacts.md gives, or names the wrong key id.
        public static let badKeyFile = Code("badKeyFile")

        /// A key file to be written already exists; keys are never overwritten.
        public static let keyFileExists = Code("keyFileExists")

        /// A file could not be read or written.
        public static let io = Code("io")
    }
}
