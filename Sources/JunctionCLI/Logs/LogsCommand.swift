import ArgumentParser

/// `junction logs …`: the decision logs and status reports devices upload.
struct LogsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "logs",
        abstract: "Collect and report the decision logs and status reports devices upload.",
        subcommands: [LogsServeCommand.self, LogsReportCommand.self]
    )
}
