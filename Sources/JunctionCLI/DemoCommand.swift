import ArgumentParser
import Junction
import JunctionAuthoring
import Logging

/// `junction demo`: a scripted session of the sample app under a bundle.
struct DemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Run a scripted session of the sample app under a bundle, printing the page stack after each step.",
        discussion: """
            Launch, a login-gated push link (gate → login → resume), the address picker returning \
            its choice, capture → edit → publish and back to before capture, an H5 page invoking \
            the native share action, the H5 degrade of a crashing page, a Flutter page, and an old \
            version's unknown push link sent to the upgrade page. The output is deterministic. Exit status \
            2 when the bundle does not load.
            """
    )

    @Option(name: .long, help: ArgumentHelp("The bundle folder.", valueName: "dir"))
    var bundle = "rules/example"

    @MainActor
    func run() async throws {
        let loaded: RuleBundle
        do {
            loaded = try RuleBundle.load(
                directory: bundle, logger: Logger(label: "junction.lua") { _ in SwiftLogNoOpLogHandler() })
        } catch {
            for diagnostic in error.diagnostics { printError(diagnostic.description) }
            throw ExitCode(2)
        }
        let session = try DemoSession(bundle: loaded) { print($0) }
        try await session.run()
    }
}
