extension ChannelPublisher {
    /// What a publish decided: the signed pointer and where it and the object go.
    ///
    /// The caller writes the object first (when ``writesObject``), then the pointer, each
    /// whole or not at all, so a device never reads a pointer whose object is missing.
    public struct Publication: Sendable, Hashable {
        /// The new pointer.
        public let pointer: ChannelPointer
        /// Its file, signed: the bytes to write at ``pointerPath``.
        public let signedPointer: [UInt8]
        /// `channels/NAME.json`, relative to the site.
        public let pointerPath: String
        /// `objects/<sha256>.jbundle`, relative to the site.
        public let objectPath: String
        /// Whether the artifact is to be written at ``objectPath``: `false` when the site
        /// already holds these very bytes there.
        public let writesObject: Bool
        /// Why the current pointer, replaced as ``Options/replacesUnverifiedPointer`` asked,
        /// did not verify; `nil` when it verified or there was none.
        public let replacedPointerProblem: String?
    }
}
