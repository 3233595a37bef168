import ArgumentParser

/// `junction`: match URLs against route tables and check them.
@main
struct JunctionCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "junction",
        abstract: "Junction's command line: match URLs against a route table and validate tables.",
        subcommands: [MatchCommand.self, RoutesCommand.self]
    )
}
