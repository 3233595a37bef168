import ArgumentParser

/// `junction bundle …`: work with signed bundle artifacts (`.jbundle`).
struct BundleCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bundle",
        abstract: "Work with signed bundle artifacts (.jbundle).",
        subcommands: [
            BundleBuildCommand.self, BundleVerifyCommand.self, BundleInspectCommand.self, BundlePublishCommand.self,
        ]
    )
}
