public import JunctionArtifact
public import JunctionCore
public import JunctionLua
public import Logging

extension RuleBundle {
    /// The bundle a verified artifact holds: `manifest.json`, `routes.json` and `tests.json`
    /// (none when absent) decoded from canonical JSON, and every `lua` member compiled —
    /// no YAML, nothing written to disk. Its ``directory`` is the artifact's name and
    /// version (`shop@1.4.0`), so errors and traces read `shop@1.4.0/policies.lua:4`.
    /// - Parameters:
    ///   - artifact: The verified artifact.
    ///   - json: What the JSON reader accepts at most, for each part.
    ///   - limits: The sandbox's budgets for the rules, loading included.
    ///   - logger: Receives the rules' `print` and `log.*` output.
    ///   - readingTests: Whether `tests.json` is decoded; without, the bundle has no tests —
    ///     for an update reopened at launch, whose tests ran when it was accepted.
    /// - Throws: ``UpdateRefusal`` (`bundleInvalid`) with every diagnostic: a member that
    ///   is missing, not UTF-8 or does not decode, a rule that does not compile or exceeds
    ///   its budget while loading.
    public init(
        artifact: Artifact, json: CanonicalJSONLimits = .default, limits: SandboxLimits = SandboxLimits(),
        logger: Logger = Logger(label: "junction.lua"), readingTests: Bool = true
    ) throws(UpdateRefusal) {
        try self.init(
            artifact: artifact, json: json, limits: limits, logger: logger, readingTests: readingTests,
            routesValidatedBefore: false)
    }

    /// ``init(artifact:json:limits:logger:readingTests:)``; with `routesValidatedBefore`,
    /// the artifact is one this device accepted (its acceptance stamped, its bytes checked
    /// against their hashes), and its route table is compiled without comparing its routes
    /// again (``RouteTableBuilder/buildValidatedBefore()``).
    package init(
        artifact: Artifact, json: CanonicalJSONLimits = .default, limits: SandboxLimits = SandboxLimits(),
        logger: Logger = Logger(label: "junction.lua"), readingTests: Bool, routesValidatedBefore: Bool
    ) throws(UpdateRefusal) {
        let directory = "\(artifact.header.name)@\(artifact.header.version)"
        var problems: [Diagnostic] = []
        func member(_ path: String) -> [UInt8]? {
            guard let bytes = artifact.contents(of: path) else {
                problems.append(
                    Diagnostic(
                        .error, "the artifact has no \(path); build it with junction bundle build",
                        at: SourceLocation(file: directory, line: 1, column: 1)))
                return nil
            }
            return Array(bytes)
        }
        let manifest = member("manifest.json")
        let routes = member("routes.json")
        // A bundle without tests has no tests.json; it still must keep the app's invariants.
        let tests = (readingTests ? artifact.contents(of: "tests.json").map(Array.init) : nil) ?? Array("[]".utf8)
        var sources: [RuleSource] = []
        for entry in artifact.header.members where entry.kind == .lua {
            guard let bytes = artifact.contents(of: entry.path),
                let text = String(validating: bytes, as: UTF8.self)
            else {
                problems.append(
                    Diagnostic(
                        .error, "not UTF-8 text; a rule file is Lua source text",
                        at: SourceLocation(file: directory + "/" + entry.path, line: 1, column: 1)))
                continue
            }
            sources.append(RuleSource(name: entry.path, text: text))
        }
        guard problems.isEmpty, let manifest, let routes else {
            throw UpdateRefusal.bundleInvalid(directory, problems)
        }
        do {
            try self.init(
                canonicalManifest: manifest, routes: routes, tests: tests, sources: sources, directory: directory,
                json: json, limits: limits, logger: logger, routesValidatedBefore: routesValidatedBefore)
        } catch {
            throw UpdateRefusal.bundleInvalid(directory, error.diagnostics)
        }
    }
}
