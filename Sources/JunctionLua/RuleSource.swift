/// One Lua file of a bundle: its name (shown in every error, `rules/login.lua:12: …`)
/// and its source text.
public struct RuleSource: Sendable, Hashable {
    /// The name errors and traces show, usually the file's path in the bundle.
    public var name: String
    /// Lua 5.4 source text. Precompiled chunks are refused.
    public var text: String

    /// Creates a source.
    /// - Parameters:
    ///   - name: The chunk's name.
    ///   - text: The Lua source.
    public init(name: String, text: String) {
        self.name = name
        self.text = text
    }
}
