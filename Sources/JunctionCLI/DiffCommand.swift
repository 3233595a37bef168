import ArgumentParser
import Foundation
import Junction
import JunctionTooling
import JunctionArtifact

/// `junction diff OLD NEW --urls FILE`: what changes for real traffic if NEW replaces OLD.
struct DiffCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "diff",
        abstract: "Decide a corpus of real requests under two bundles and report what changes.",
        discussion: """
            OLD and NEW are bundle folders or .jbundle artifacts (verified with --pubkey; their dates \
            are not checked). Every request of the corpus — URLs one a line, or JSON lines {"url", \
            "source", "context", "params"} as Decision.corpusLine writes them, plain or gzip — is \
            decided by both, on every core, and each change is classified: \
            \(DecisionChange.Kind.allCases.map(\.rawValue).joined(separator: ", ")). The report gives \
            each kind's count, broken down by cause — the rule, redirect or route at the first \
            trace step where the decisions part, most frequent first (50 a kind, the rest as \
            other) — and its first samples (distinct URLs) with both decisions and that step, \
            then the routes and rules of NEW the corpus never exercised. A request whose \
            context's app_version is below NEW's minimum_host_version is not decided: that device \
            refuses NEW and keeps OLD, so it is counted apart, not as a change. A line without a \
            source is decided once per --source, one without a context once per context of \
            --contexts FILE (JSON objects, one a line, over the --context values). A corpus line that cannot be read (bad JSON, a context that does not fit \
            NEW's schema, an unknown source, a line too long) is skipped and counted: the report \
            shows how many and the first \(SkippedLines.keptLimit) as FILE:LINE: what is wrong; \
            --strict-corpus stops at the first instead. Exit status: 0 when the checks pass and \
            every line was read; 1 when there are more changes than --max-changes or a change of \
            a --fail-on kind (whether or not lines were skipped); 2 when a bundle does not load; \
            3 when the corpus as a whole, a --context or a --source is unusable, or with \
            --strict-corpus a line is (FILE:LINE: error: …); 4 when the checks pass but lines \
            were skipped.
            """
    )

    /// The report formats.
    enum Format: String, ExpressibleByArgument, CaseIterable {
        case text, json, html
    }

    @Argument(help: ArgumentHelp("The bundle shipped now: a folder or a .jbundle.", valueName: "old"))
    var old: String

    @Argument(help: ArgumentHelp("The candidate bundle: a folder or a .jbundle.", valueName: "new"))
    var new: String

    @Option(
        name: .customLong("urls"),
        help: ArgumentHelp("The corpus: URLs or JSON lines, plain or gzip (- reads standard input).", valueName: "file")
    )
    var corpus: String

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Who opens lines without a source; repeat to decide each line once per source.", valueName: "source"))
    var source: [String] = []

    @OptionGroup var values: RequestValueOptions

    @Option(name: .customLong("pubkey"), help: ArgumentHelp("A key artifacts may be signed with.", valueName: "file"))
    var pubkeys: [String] = []

    @Option(name: .long, help: ArgumentHelp("Samples kept for each kind of change.", valueName: "n"))
    var samples = 5

    @Option(name: .customLong("max-changes"), help: ArgumentHelp("Exit 1 when more requests change.", valueName: "n"))
    var maxChanges: Int?

    @Option(
        name: .customLong("fail-on"), parsing: .upToNextOption,
        help: ArgumentHelp("Exit 1 when a change of one of these kinds is found.", valueName: "kind"))
    var failOn: [String] = []

    @Option(name: .long, help: "Report format: text, json or html.")
    var format: Format = .text

    @Option(name: .long, help: ArgumentHelp("Write the report to FILE instead of standard output.", valueName: "file"))
    var output: String?

    @Flag(name: .customLong("no-progress"), help: "No progress line on standard error, even on a terminal.")
    var noProgress = false

    @Flag(
        name: .customLong("strict-corpus"),
        help: "Stop at the first corpus line that cannot be read (exit 3) instead of skipping it.")
    var strictCorpus = false

    /// The exit status of a run whose checks pass but that skipped corpus lines.
    static let skippedLinesStatus: Int32 = 4

    func validate() throws {
        guard (0...1_000).contains(samples) else { throw ValidationError("--samples is between 0 and 1000") }
        if let maxChanges, maxChanges < 0 { throw ValidationError("--max-changes is 0 or more") }
        for kind in failOn where DecisionChange.Kind(rawValue: kind) == nil {
            throw ValidationError(
                "--fail-on \(kind): not a kind of change; one of "
                    + DecisionChange.Kind.allCases.map(\.rawValue).joined(separator: ", "))
        }
    }

    func run() throws {
        var keys: [VerificationKey] = []
        for path in pubkeys {
            do { keys.append(try KeyFile.readVerificationKey(at: path)) } catch {
                printError("\(path): \(error)")
                throw ExitCode(2)
            }
        }
        let sides = [old, new].map { DiffSide.load($0, keys: keys) }
        var loaded: [DiffSide] = []
        for side in sides {
            switch side {
            case .success(let value): loaded.append(value)
            case .failure(let error): error.lines.forEach(printError)
            }
        }
        guard loaded.count == 2 else { throw ExitCode(2) }
        let (before, after) = (loaded[0], loaded[1])
        // The candidate's manifest says which sources and context keys there are.
        var opened = try values.corpus(sources: source.isEmpty ? ["internal"] : source)
            .open(corpus, manifest: after.loaded.bundle.manifest, skipsBadLines: !strictCorpus)

        var tally = DiffTally(sampleLimit: samples)
        var progress = DiffProgress(enabled: !noProgress)
        let (oldDecider, newDecider, limit) = (before.loaded.decider, after.loaded.decider, samples)
        let floor = HostVersionFloor(minimum: after.loaded.bundle.manifest.minimumHostVersion)
        var failure: CorpusError?
        while true {
            let (requests, problem) = opened.nextBatch()
            for share in ParallelShares.map(
                requests,
                { share in
                    DiffTally.deciding(share, old: oldDecider, new: newDecider, floor: floor, sampleLimit: limit)
                })
            {
                tally.merge(share)
            }
            let (read, total) = opened.reader.progress
            progress.update(requests: tally.requests, changed: tally.changed, read: read, total: total)
            if let problem {
                failure = problem
                break
            }
            if opened.finished { break }
        }
        progress.finish()
        if let failure {
            printError(failure.description)
            throw ExitCode(3)
        }
        let report = DiffReport(
            old: before.label, new: after.label, oldLabel: before.loaded.label, newLabel: after.loaded.label,
            minimumHostVersion: floor.minimum, corpus: corpus,
            lines: opened.reader.lines, skipped: opened.skipped, tally: tally,
            unexercisedRoutes: tally.exercise.unexercisedRoutes(of: after.loaded.bundle).map(\.name),
            unexercisedRules: tally.exercise.unexercisedRules(of: after.loaded.bundle),
            failedChecks: checks(tally))
        let rendered =
            switch format {
            case .text: report.text
            case .json: report.json
            case .html: report.html
            }
        if let output {
            do { try AtomicFile.write(Array((rendered + (format == .html ? "" : "\n")).utf8), to: output) } catch {
                printError("diff: cannot write \(output): \(error)")
                throw ExitCode(3)
            }
        } else {
            print(rendered, terminator: format == .html ? "" : "\n")
        }
        if opened.skipped.count > 0, let first = opened.skipped.first.first {
            printError(
                "diff: \(opened.skipped.count) corpus \(opened.skipped.count == 1 ? "line" : "lines") skipped, "
                    + "the first: \(SkippedLines.line(first))")
        }
        for check in report.failedChecks { printError("diff: " + check) }
        if !report.failedChecks.isEmpty { throw ExitCode(1) }
        if opened.skipped.count > 0 { throw ExitCode(Self.skippedLinesStatus) }
    }

    /// Why the run fails `--max-changes` and `--fail-on`.
    private func checks(_ tally: DiffTally) -> [String] {
        var failed: [String] = []
        if let maxChanges, tally.changed > maxChanges {
            failed.append("\(tally.changed) requests change, more than --max-changes \(maxChanges)")
        }
        for name in failOn {
            guard let kind = DecisionChange.Kind(rawValue: name), let count = tally.counts[kind], count > 0 else {
                continue
            }
            failed.append("\(count) \(count == 1 ? "request is" : "requests are") \(kind.phrase) (--fail-on \(name))")
        }
        return failed
    }
}
