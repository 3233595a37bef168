import ArgumentParser
import JunctionLua

/// `junction`: match URLs against route tables and check them.
@main
struct JunctionCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "junction",
        abstract: "Junction's command line: match URLs, check route tables and bundles, test and evaluate rules.",
        version: "junction, rules on \(LuaRelease.name)",
        subcommands: [
            MatchCommand.self, RoutesCommand.self, TestCommand.self, EvalCommand.self, DiffCommand.self,
            CheckCommand.self, CodegenCommand.self,
            DemoCommand.self, KeygenCommand.self, BundleCommand.self, AgentCommand.self, LogsCommand.self,
        ]
    )
}
