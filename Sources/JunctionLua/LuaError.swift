/// An error from a ``RuleEngine``: a chunk that did not load, run or convert.
///
/// ``code`` says what kind of failure it was; compare it with the static values of
/// ``Code`` (`error.code == .syntax`), which may grow without breaking a `switch`.
/// ``description`` renders it the way Lua does: `chunk:line: message`.
public struct LuaError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of failure this is.
    public let code: Code

    /// The name of the chunk that failed: a bundle file's ``RuleSource/name`` (`login.lua`),
    /// or what was running when no file is to blame (the function called).
    public let chunkName: String

    /// The line Lua reported the error at, when it reported one.
    public let line: Int?

    /// What went wrong, without the chunk name and line.
    public let message: String

    /// Creates an error.
    package init(code: Code, chunkName: String, line: Int?, message: String) {
        self.code = code
        self.chunkName = chunkName
        self.line = line
        self.message = message
    }

    /// `chunk:line: message`, or `chunk: message` when there is no line.
    public var description: String {
        if let line {
            "\(chunkName):\(line): \(message)"
        } else {
            "\(chunkName): \(message)"
        }
    }
}
