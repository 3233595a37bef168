import JunctionArtifact

/// `bundle publish --channel NAME`: 1 to 64 of `a-z 0-9 . _ -`, starting with a letter or
/// digit (``ChannelPointer/isChannelName(_:)``), so it is a file name inside `channels/`.
struct ChannelNameArgument: OptionValue, Hashable, CustomStringConvertible {
    /// The name.
    let name: String

    init(parsing text: String) throws(OptionValueError) {
        guard ChannelPointer.isChannelName(text) else {
            throw OptionValueError("not a channel name: 1 to 64 of a-z 0-9 . _ -, starting with a letter or digit")
        }
        self.name = text
    }

    /// The name.
    var description: String { name }
}
