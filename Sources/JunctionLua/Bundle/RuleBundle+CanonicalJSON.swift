public import JunctionCore
public import Logging

extension RuleBundle {
    /// The bundle's manifest, route table and tests as canonical JSON — what an artifact
    /// carries besides the Lua ``sources`` — with locations relative to ``directory``.
    /// The same bundle always gives the same bytes.
    /// - Returns: `manifest.json`, `routes.json` and `tests.json`, UTF-8.
    /// - Throws: `CanonicalJSONError` for a value JSON cannot hold (a NaN in a route's `meta`
    ///   or a test's context).
    public func canonicalJSON() throws(CanonicalJSONError) -> (manifest: [UInt8], routes: [UInt8], tests: [UInt8]) {
        (
            try manifest.canonicalJSON(), try routes.canonicalJSON(relativeTo: directory),
            try RuleTestCase.canonicalJSON(tests, relativeTo: directory)
        )
    }

    /// Builds a bundle from the canonical JSON of its parts and its Lua sources, with no
    /// YAML: what a device does with an artifact.
    /// - Parameters:
    ///   - manifest: `manifest.json`.
    ///   - routes: `routes.json`.
    ///   - tests: `tests.json`.
    ///   - sources: The Lua files, named relative to the bundle.
    ///   - directory: The name errors and findings put the bundle's files inside (see
    ///     ``init(directory:manifest:routes:sources:tests:limits:logger:coverage:)``).
    ///   - json: What the JSON reader accepts at most, for each part.
    ///   - limits: The sandbox's budgets for the rules.
    ///   - logger: Receives the rules' `print` and `log.*` output.
    ///   - coverage: Whether the engines record which lines run.
    /// - Throws: `BundleError`: each part that does not decode, at `FILE:1:1` with its
    ///   JSON path (`routes.json:1:1: error: routes[3].pattern: expected text, found 12`),
    ///   then what the parts initializer refuses (two rule files of one name, a rule that
    ///   does not compile or load) — the rules compile while the parts decode, so a bundle
    ///   with both kinds of problem reports both, as a folder does.
    public init(
        canonicalManifest manifest: [UInt8], routes: [UInt8], tests: [UInt8], sources: [RuleSource],
        directory: String, json: CanonicalJSONLimits = .default, limits: SandboxLimits = SandboxLimits(),
        logger: Logger = Logger(label: "junction.lua"), coverage: Bool = false
    ) throws(BundleError) {
        try self.init(
            canonicalManifest: manifest, routes: routes, tests: tests, sources: sources, directory: directory,
            json: json, limits: limits, logger: logger, coverage: coverage, routesValidatedBefore: false)
    }

    /// ``init(canonicalManifest:routes:tests:sources:directory:json:limits:logger:coverage:)``;
    /// with `routesValidatedBefore`, `routes` are bytes this process's code validated before
    /// (an update accepted on this device, its hash checked and its acceptance stamped), and
    /// its table is compiled without comparing its routes again.
    ///
    /// The rules compile on a thread of their own from the start, while the manifest, the
    /// route table and the tests are decoded on this one, as a folder's are read
    /// (``assemble(directory:sources:limits:logger:coverage:readingMeanwhile:)``): at launch
    /// the compile is most of the wait for the first decision.
    package init(
        canonicalManifest manifest: [UInt8], routes: [UInt8], tests: [UInt8], sources: [RuleSource],
        directory: String, json: CanonicalJSONLimits = .default, limits: SandboxLimits = SandboxLimits(),
        logger: Logger = Logger(label: "junction.lua"), coverage: Bool = false, routesValidatedBefore: Bool
    ) throws(BundleError) {
        let sorted = sources.sorted { $0.name < $1.name }
        self = try Self.assemble(
            directory: directory, sources: sorted, limits: limits, logger: logger, coverage: coverage
        ) { () -> ReadParts in
            var problems: [Diagnostic] = []
            func problem(_ error: CanonicalJSONError) {
                problems.append(
                    Diagnostic(
                        .error, [error.place, error.message].filter { !$0.isEmpty }.joined(separator: ": "),
                        at: SourceLocation(file: error.file, line: 1, column: 1)))
            }
            var decodedManifest: BundleManifest?
            var decodedRoutes: RouteTable?
            var decodedTests: [RuleTestCase] = []
            do throws(CanonicalJSONError) {
                decodedManifest = try BundleManifest(canonicalJSON: manifest, limits: json)
            } catch { problem(error) }
            do throws(CanonicalJSONError) {
                decodedRoutes = try RouteTable(
                    canonicalJSON: routes, directory: directory, limits: json, validatedBefore: routesValidatedBefore)
            } catch { problem(error) }
            do throws(CanonicalJSONError) {
                decodedTests = try RuleTestCase.decode(
                    canonicalJSON: tests, directory: directory, manifest: decodedManifest, limits: json)
            } catch { problem(error) }
            // The parts' problems first, then the rule files', as a folder's are reported.
            problems += Self.sameNames(sorted, directory: directory)
            return ReadParts(
                manifest: decodedManifest, routes: decodedRoutes,
                testFiles: Set(decodedTests.map(\.location.file)).sorted(), tests: decodedTests, problems: problems)
        }
        validatedBefore = routesValidatedBefore
    }
}
