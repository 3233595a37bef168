extension ChannelPublisher {
    /// What the static site holds now, as far as a publish needs it: the channel's pointer
    /// file and whatever has the artifact's object name. The caller reads them; the rules
    /// read no file.
    public struct Site: Sendable, Hashable {
        /// The bytes of `channels/NAME.json` (``ChannelPublisher/pointerPath``), read no
        /// further than ``ChannelPointer/maximumBytes`` plus one; `nil` when there is none.
        public var pointer: [UInt8]?
        /// What has the artifact's object name (``ChannelPublisher/objectPath(for:)``): `nil`
        /// when nothing has it; else its bytes, read no further than the artifact's length
        /// plus one, so a longer object is told without reading it all. A name taken by
        /// anything that cannot be read as a regular file holds `[]`, which no artifact is.
        public var object: [UInt8]?

        /// A site.
        /// - Parameters:
        ///   - pointer: The channel's pointer file, or `nil`.
        ///   - object: What has the object's name, or `nil`.
        public init(pointer: [UInt8]? = nil, object: [UInt8]? = nil) {
            self.pointer = pointer
            self.object = object
        }
    }
}
