import JunctionArtifact

/// `bundle publish --salt TEXT`: what a rollout hashes install ids with, 1 to 64 of
/// `A-Z a-z 0-9 . _ -` (``ChannelPointer/Rollout``).
struct SaltArgument: OptionValue, Hashable, CustomStringConvertible {
    /// The salt.
    let text: String

    init(parsing text: String) throws(OptionValueError) {
        guard (try? ChannelPointer.Rollout(percent: 100, salt: text)) != nil else {
            throw OptionValueError("not 1 to 64 of A-Z a-z 0-9 . _ -")
        }
        self.text = text
    }

    /// The salt.
    var description: String { text }
}
