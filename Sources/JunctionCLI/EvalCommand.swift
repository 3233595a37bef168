import ArgumentParser
import Foundation
import Junction

/// `junction eval URL --bundle DIR`: the decision for one URL.
struct EvalCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "eval",
        abstract: "Decide what opening a URL does under a bundle's routes and rules.",
        discussion: """
            Runs the whole pipeline — redirects, match, fallbacks, access, interceptors — and prints \
            the decision; --explain adds the trace, one step a line. Context values are typed as in \
            rule tests: by the manifest's context: schema when it declares one (--context \
            app_version=6.0 is then a version, and an undeclared key is an error), else as YAML types \
            them: --context user.id=42 --context vip=true --context app_version=\\"5.2.0\\". \
            Exit status: 0 when the decision opens, responds, gates or hands over; 1 when it rejects \
            or nothing matches; 2 when the bundle does not load; 3 when a --context or --param does \
            not parse or does not fit the schema, or --source is not a source of the bundle. \
            With --urls FILE, every line of the corpus is decided, on every core, and printed in \
            order — one line each, or one JSON object each with --json; a line's own source and \
            context replace --source and --context, and a line without a context is decided in \
            each context of --contexts FILE. A gzip corpus is read as it is inflated. Exit status then: 0 when every line was \
            decided, 2 when the bundle does not load, 3 when a line cannot be read (FILE:LINE: \
            error: …, after the lines before it) or an option does not parse.
            """
    )

    @Argument(help: ArgumentHelp("The URL to open.", valueName: "url"))
    var url: String?

    @Option(
        name: .customLong("urls"),
        help: ArgumentHelp(
            "A corpus to decide instead, one request a line: a URL, or {\"url\", \"source\", \"context\", \"params\"} (- reads standard input).",
            valueName: "file"))
    var corpus: String?

    @Option(name: .long, help: ArgumentHelp("The bundle folder.", valueName: "dir"))
    var bundle: String

    @OptionGroup var values: RequestValueOptions

    @Option(
        name: .long,
        help: "Who opens it: internal, push, universal_link, h5, external, or a source the manifest declares.")
    var source = "internal"

    @Flag(name: .long, help: "Print the trace, one step a line.")
    var explain = false

    @Flag(name: .long, help: "Print the decision as one JSON object.")
    var json = false

    func run() throws {
        if let corpus {
            guard url == nil, !explain else {
                throw UsageError("--urls decides a corpus: give no URL and no --explain with it").report("eval")
            }
            return try runCorpus(corpus)
        }
        guard let url else { throw UsageError("give a URL to open, or --urls FILE").report("eval") }
        guard values.contexts == nil else {
            throw UsageError("--contexts multiplies a corpus: give it with --urls").report("eval")
        }
        let params: [String: RuleValue]
        let context: ContextArguments
        do {
            // What can be checked without the bundle is, first: a typo costs no load.
            context = try ContextArguments(values.context)
            params = try KeyValueArguments.parse(values.param, option: "--param")
        } catch {
            printError(error.message)
            throw ExitCode(3)
        }
        let loaded: LoadedBundle
        switch LoadedBundle.load(bundle, showLogs: true) {
        case .success(let value): loaded = value
        case .failure(let error):
            for diagnostic in error.diagnostics { printError(diagnostic.description) }
            throw ExitCode(2)
        }
        let manifest = loaded.bundle.manifest
        if let message = manifest.unknownSourceMessage(source) {
            printError("--source: \(message)")
            throw ExitCode(3)
        }
        let contextValues: [String: RuleValue]
        do {
            contextValues = try context.values(schema: manifest.context)
        } catch {
            printError(error.message)
            throw ExitCode(3)
        }
        let decision = loaded.decider.decide(
            RouteRequest(url, params: params, source: RequestSource(rawValue: source)),
            context: ContextSnapshot(contextValues))
        if json {
            print(DecisionRendering.json(decision))
        } else {
            print("\(url) → \(decision.summary)")
            if explain {
                print(
                    "  trace (\(decision.trace.bundle ?? loaded.label), \(DecisionRendering.microseconds(decision.trace.nanoseconds))):"
                )
                DecisionRendering.trace(decision.trace, indent: "    ", timing: true).forEach { print($0) }
            }
        }
        switch decision.outcome {
        case .reject, .unmatched: throw ExitCode(1)
        default: break
        }
    }

    /// `--urls`: the corpus decided in batches, every core deciding, printed in order.
    private func runCorpus(_ path: String) throws {
        let loaded: LoadedBundle
        // A corpus is decided as devices decide, instructions counted in steps of 1,000.
        switch LoadedBundle.load(bundle, showLogs: false, exactCounts: false) {
        case .success(let value): loaded = value
        case .failure(let error):
            for diagnostic in error.diagnostics { printError(diagnostic.description) }
            throw ExitCode(2)
        }
        let manifest = loaded.bundle.manifest
        var corpus = try values.corpus(sources: [source]).open(path, manifest: manifest)
        let json = self.json
        let output = FileHandle.standardOutput
        while true {
            // The lines before a bad one are decided and printed first.
            let (requests, failure) = corpus.nextBatch()
            let lines = BatchDecisions.render(requests, decider: loaded.decider) { _, decision in
                json ? DecisionRendering.json(decision, timing: false) : "\(decision.request.url) → \(decision.summary)"
            }
            if !lines.isEmpty { output.write(Data((lines.joined(separator: "\n") + "\n").utf8)) }
            if let failure {
                printError(failure.description)
                throw ExitCode(3)
            }
            if requests.isEmpty { return }
        }
    }
}
