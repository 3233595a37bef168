import JunctionCore
/// Why a value did not convert, and where: the internal error of
/// ``RuleValueReader`` and ``RuleValueWriter``, which each turn it into a
/// ``LuaError`` with code ``LuaError/Code/conversion`` at their entry point.
struct RuleValueConversionFailure: Error {
    /// What is wrong with the value at ``path`` and what to do about it.
    let problem: String

    /// Where the problem is, filled in while the failure unwinds.
    var path = RuleValuePath()

    init(_ problem: String) {
        self.problem = problem
    }

    /// This failure with one more enclosing step.
    func prepending(_ component: RuleValuePath.Component) -> Self {
        var failure = self
        failure.path.prepend(component)
        return failure
    }

    /// The public error: `"<verb> <root><path>: <problem>"`, such as
    /// `cannot read result.items[3] from Lua: it is a function; …`.
    func luaError(chunkName: String, root: String, verb: String, direction: String) -> LuaError {
        LuaError(
            code: .conversion, chunkName: chunkName, line: nil,
            message: "\(verb) \(path.rendered(root: root)) \(direction): \(problem)")
    }
}
