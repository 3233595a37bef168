import ArgumentParser
import Foundation
import Junction

/// `junction test [BUNDLE...]`: run bundles' rule tests.
struct TestCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "test",
        abstract: "Run the rule tests of bundles (their tests/*.yaml).",
        discussion: """
            Each test opens a URL (with its source, context and params) through the bundle's whole \
            pipeline and checks the decision against its expect: route, params (a subset), redirect \
            (the final URL, or none), reject (a rule or the access check refused), code, reason, \
            cause, gate, respond, hand_over, unmatched, and fails (the rules that must fail: a test \
            fails whenever a rule it does not name fails). A failure shows expected against actual, \
            the rules that failed and the trace. Exit status: 0 when every test passes (and \
            coverage meets --threshold), 1 when a test fails, coverage is below the threshold or \
            --run selects no test, 2 when a bundle does not load.
            """
    )

    /// The output formats.
    enum Format: String, ExpressibleByArgument, CaseIterable {
        case text, tap, junit, json
    }

    @Argument(help: ArgumentHelp("Bundle folders.", valueName: "bundle"))
    var bundles: [String] = []

    @Option(name: .long, help: "Output format: text, tap, junit or json.")
    var format: Format = .text

    @Flag(name: .long, help: "Report which rules and which Lua lines the tests ran.")
    var coverage = false

    @Option(
        name: .long,
        help: ArgumentHelp("Fail when line coverage is below P percent (implies --coverage).", valueName: "P"))
    var threshold: Double?

    @Option(
        name: [.customLong("run")],
        help: ArgumentHelp(
            "Run only the tests whose name matches the regular expression (exit 1 when none does).",
            valueName: "regex"))
    var selection: String?

    @Flag(
        name: .shortAndLong,
        help: "Show the trace of passing tests too (text format), and the rules' log lines on standard error.")
    var verbose = false

    func validate() throws {
        if bundles.isEmpty { throw ValidationError("give at least one bundle folder") }
        if let threshold, !(0...100).contains(threshold) {
            throw ValidationError("--threshold is a percentage from 0 to 100")
        }
        if let selection, (try? Regex(selection)) == nil {
            throw ValidationError("--run \"\(selection)\" is not a valid regular expression")
        }
    }

    func run() throws {
        let selector = try selection.map { try Regex($0) }
        let filter: ((String) -> Bool)? = selector.map { regex in { $0.contains(regex) } }
        let measure = coverage || threshold != nil
        let reports = bundles.map {
            TestReport.run(directory: $0, coverage: measure, showLogs: verbose, filter: filter)
        }
        switch format {
        case .text:
            for report in reports { report.text(verbose: verbose).forEach { print($0) } }
        case .tap: reports.tap.forEach { print($0) }
        case .junit: reports.junit.forEach { print($0) }
        case .json: print(reports.json)
        }
        var belowThreshold: [String] = []
        if let threshold {
            for report in reports {
                if let coverage = report.coverage, coverage.percent < threshold {
                    belowThreshold.append(
                        "\(report.label ?? report.directory): line coverage "
                            + "\(TestReport.percent(coverage.percent)) is below the threshold of \(TestReport.percent(threshold))"
                    )
                }
            }
            belowThreshold.forEach(printError)
        }
        if reports.contains(where: { $0.label == nil }) { throw ExitCode(2) }
        // A selection that runs nothing proves nothing: a typo in --run must not pass CI.
        let noneSelected = selection != nil && reports.allSatisfy { $0.outcomes.isEmpty }
        if let selection, noneSelected {
            let count = reports.reduce(0) { $0 + $1.testCount }
            let tests = count == 1 ? "1 test" : "\(count) tests"
            let holder = reports.count == 1 ? "the bundle has" : "the \(reports.count) bundles have"
            printError(
                "no test name matches --run \"\(selection)\" (\(holder) \(tests)); a name matches when the "
                    + "regular expression matches any part of it")
        }
        if reports.contains(where: { $0.failed > 0 }) || !belowThreshold.isEmpty || noneSelected { throw ExitCode(1) }
    }
}
