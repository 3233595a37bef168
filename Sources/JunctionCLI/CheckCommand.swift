import ArgumentParser
import Junction

/// `junction check DIR`: load a rule bundle and report static findings on it.
struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Check a rule bundle: it loads and compiles, and its rules make sense together.",
        discussion: """
            Loads the bundle (manifest, routes.yaml, every *.lua, tests/*.yaml) and compiles its \
            redirects and interceptor patterns, then reports: redirect cycles (redirect-cycle, an \
            error; a warning when a `when` condition is involved), redirects to URLs nothing handles \
            (redirect-to-nothing), routes higher-precedence routes always win over \
            (unreachable-route), groups without a group() policy and policies for unused groups \
            (group-without-policy, unused-group-policy), route interceptors whose pattern \
            matches no route (interceptor-matches-nothing), and in the rules' code: globals \
            nothing defines (undefined-global), globals a rule assigns (global-assignment) and \
            req.source compared with a source the bundle does not know (unknown-source), all \
            errors. Each finding prints as \
            FILE:LINE:COL: SEVERITY: MESSAGE [CODE], then a summary line. \
            Exit status: 0 when there are no errors (warnings allowed unless --strict), 1 when a \
            finding is an error (or, with --strict, a warning), 2 when the bundle does not load.
            """
    )

    /// The output formats.
    enum Format: String, ExpressibleByArgument, CaseIterable {
        case text, json
    }

    @Argument(help: ArgumentHelp("The bundle folder.", valueName: "dir"))
    var directory: String

    @Option(name: .long, help: "Output format: text or json.")
    var format: Format = .text

    @Flag(name: .long, help: "Exit 1 on warnings too.")
    var strict = false

    func run() throws {
        let report = CheckReport.run(directory: directory)
        switch format {
        case .text: report.text.forEach { print($0) }
        case .json: print(report.json)
        }
        if !report.loaded { throw ExitCode(2) }
        if report.errors > 0 || strict && report.warnings > 0 { throw ExitCode(1) }
    }
}
