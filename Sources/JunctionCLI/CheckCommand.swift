import ArgumentParser
import Junction
import JunctionTooling

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
            nothing defines (undefined-global), globals a rule assigns (global-assignment), \
            req.source compared with a source the bundle does not know (unknown-source), ctx keys \
            the manifest's context: schema does not declare (unknown-context-key), req fields a \
            request does not have (unknown-request-field), version literals that are not \
            versions and versions compared as text (bad-version-literal, \
            version-compared-as-text), all errors; fields of a context key read without testing \
            it (unguarded-context-read), cycles through the redirects rules return and \
            redirects from exported routes to routes that are not (redirect-cycle, \
            redirect-to-unexported), a pre-release minimum_host_version \
            (prerelease-host-version), warnings. Redirects around a group policy \
            (redirect-leaves-policies) and groups misspelt beside a policy's name \
            (group-near-policy) are errors that the manifest's allow: list can accept on purpose; \
            check lists what it accepts. With --app FILE (once per app version: the JSON an app's \
            router.capabilities(hostVersion:) writes), for each version at or above the manifest's \
            minimum_host_version: routes whose target it has no page or task for and no rule \
            answers (target-missing), dispatched schemes it has no dispatcher for \
            (dispatcher-missing), redirects and fallbacks that lead there \
            (redirect-to-missing-target), and the minimum_host_version that lets it load the bundle \
            (host-version-too-low), all errors; a file below minimum_host_version gets a note and \
            is not checked. Each finding prints as \
            FILE:LINE:COL: SEVERITY: MESSAGE [CODE], then a summary line. \
            Exit status: 0 when there are no errors (warnings allowed unless --strict), 1 when a \
            finding is an error (or, with --strict, a warning), 2 when the bundle does not load or \
            an --app file cannot be read.
            """
    )

    /// The output formats.
    /// The capabilities files `--app` names, read before the bundle is loaded.
    /// - Throws: A usage error, reported for `command`, naming a file that cannot be read.
    static func apps(_ paths: [String], command: String) throws -> [CapabilitiesFile] {
        var apps: [CapabilitiesFile] = []
        for path in paths {
            do {
                apps.append(CapabilitiesFile(path: path, capabilities: try AppCapabilities(contentsOfFile: path)))
            } catch {
                throw UsageError("\(error)").report(command)
            }
        }
        return apps
    }

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case text, json
    }

    @Argument(help: ArgumentHelp("The bundle folder.", valueName: "dir"))
    var directory: String

    @Option(name: .long, help: "Output format: text or json.")
    var format: Format = .text

    @Flag(name: .long, help: "Exit 1 on warnings too.")
    var strict = false

    @Option(
        name: .long,
        help: ArgumentHelp(
            "The capabilities of an app version, as router.capabilities(hostVersion:) writes them; repeatable.",
            valueName: "file"))
    var app: [String] = []

    func run() throws {
        // A file that cannot be read costs no load of the bundle.
        let report = CheckReport.run(directory: directory, apps: try Self.apps(app, command: "check"))
        switch format {
        case .text: report.text.forEach { print($0) }
        case .json: print(report.json)
        }
        if !report.loaded { throw ExitCode(2) }
        if report.errors > 0 || strict && report.warnings > 0 { throw ExitCode(1) }
    }
}
