import ArgumentParser

/// A command line that parsed but cannot be carried out as given (a bad date, duration,
/// channel name): the command prints the message and exits with status 2.
struct UsageError: Error {
    /// What was wrong and what to give instead.
    let message: String

    init(_ message: String) {
        self.message = message
    }

    /// Prints `command: error: message` on standard error; the exit code to throw.
    func report(_ command: String) -> ExitCode {
        printError("\(command): error: \(message)")
        return ExitCode(2)
    }
}
