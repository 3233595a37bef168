/// `agent --install-id ID`: what a device's rollout buckets by, 1 to 128 visible ASCII
/// characters.
struct InstallIDArgument: OptionValue, Hashable, CustomStringConvertible {
    /// The id.
    let id: String

    init(parsing text: String) throws(OptionValueError) {
        guard (1...128).contains(text.utf8.count), text.utf8.allSatisfy({ (0x21...0x7E).contains($0) }) else {
            throw OptionValueError("not 1 to 128 visible ASCII characters")
        }
        id = text
    }

    /// The id.
    var description: String { id }
}
