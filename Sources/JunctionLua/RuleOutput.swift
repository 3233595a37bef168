public import Logging

/// Where the rules' `print` and `log.*` lines go. By default to the logger their engine was
/// made with; within ``divert(to:_:)``, to another, for the work the closure does on the
/// calling task. A device runs a bundle's own tests inside such a closure, so lines its
/// tests make (`push link myapp://user/42`) never read as the app's traffic.
public enum RuleOutput {
    /// The logger that takes the rules' output instead of their engine's, on this task.
    @TaskLocal static var diverted: Logger?

    /// Runs `body` with the rules' output, on this task, going to `logger`.
    /// - Parameters:
    ///   - logger: Where the lines go meanwhile.
    ///   - body: The work.
    /// - Returns: What `body` returns.
    public static func divert<Result>(to logger: Logger, _ body: () -> Result) -> Result {
        $diverted.withValue(logger, operation: body)
    }
}
