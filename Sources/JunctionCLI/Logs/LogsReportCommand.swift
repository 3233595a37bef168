import ArgumentParser

/// `junction logs report FILE...`: what a fleet's decision logs and status reports say.
struct LogsReportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Count what decision logs and status reports say: by outcome, route, rule, bundle, app version.",
        discussion: """
            Reads each FILE (plain or gzip NDJSON, as junction logs serve writes them or any \
            collector stores them; - for standard input) and counts its decision lines by outcome, \
            route, deciding rule and cause, bundle and app version, the rules that failed with \
            their messages, and from its status lines the devices on each bundle seq (each \
            install once, at the last seq it reported) and update refusals by code. A line that \
            cannot be read is counted, shown with its file and line, and skipped. --format html \
            writes one self-contained page of bar charts (no script, nothing fetched). Exit \
            status: 0, or 3 when a file cannot be opened or --output cannot be written.
            """
    )

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case text, json, html
    }

    @Argument(help: ArgumentHelp("The log files.", valueName: "file"))
    var files: [String]

    @Option(name: .long, help: "Output format: text, json, or html (a page of bar charts).")
    var format: Format = .text

    @Option(name: .long, help: ArgumentHelp("Write the report to FILE instead of standard output.", valueName: "file"))
    var output: String?

    @Option(name: .long, help: ArgumentHelp("The most keys a table of the text report lists.", valueName: "n"))
    var top = LogsReport.shownKeys

    func validate() throws {
        guard !files.isEmpty else { throw ValidationError("give at least one log file") }
        guard top > 0 else { throw ValidationError("--top must be at least 1") }
    }

    func run() throws {
        let report: LogsReport
        do {
            report = try LogsReport.read(files)
        } catch {
            printError("logs report: \(error)")
            throw ExitCode(3)
        }
        let rendered =
            switch format {
            case .text: report.text(top: top).joined(separator: "\n") + "\n"
            case .json: report.json + "\n"
            case .html: report.html
            }
        guard let output else {
            print(rendered, terminator: "")
            return
        }
        do { try AtomicFile.write(Array(rendered.utf8), to: output) } catch {
            printError("logs report: cannot write \(output): \(error)")
            throw ExitCode(3)
        }
    }
}
