import ArgumentParser

/// `junction routes …`: work with route tables.
struct RoutesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "routes",
        abstract: "Work with route tables.",
        subcommands: [RoutesCheckCommand.self]
    )
}
