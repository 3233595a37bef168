public import JunctionCore
public import Logging
internal import Foundation

/// A bundle folder, loaded and compiled: its manifest, its route table, its rules (as a
/// pool of engines ready to evaluate them) and what they declared.
///
/// ```
/// example/
///   manifest.yaml   name, version, minimum_host_version, description, on_error
///   routes.yaml     the route table
///   *.lua           the rules, run in file-name order
///   tests/*.yaml    rule tests (for `junction test`)
/// ```
///
/// Loading either returns a complete bundle or throws every problem found; it never
/// returns part of one.
public struct RuleBundle: Sendable {
    /// The folder it was loaded from; for a bundle built from parts, the name given for it.
    /// Errors and `junction check`'s findings put the bundle's files inside it
    /// (`rules/shop/policies.lua:4`); traces name files relative to the bundle either way.
    public let directory: String
    /// Its manifest.
    public let manifest: BundleManifest
    /// Its route table.
    public let routes: RouteTable
    /// Its Lua files, in the order they run, named relative to the bundle (`login.lua`):
    /// Lua shortens long chunk names in its messages, and traces read better this way.
    public let sources: [RuleSource]
    /// Engines compiled from `sources`.
    public let engines: RuleEnginePool
    /// What the rules declared.
    public let declarations: RuleDeclarations
    /// The paths of its rule-test files, sorted.
    public let testFiles: [String]
    /// Its rule tests, file by file in that order.
    public let tests: [RuleTestCase]

    /// Loads and compiles a bundle folder.
    /// - Parameters:
    ///   - directory: The bundle's folder.
    ///   - limits: The sandbox's budgets for its rules.
    ///   - logger: Receives the rules' `print` and `log.*` output.
    ///   - coverage: Whether the bundle's engines record which lines of its rules run
    ///     (read with ``RuleEnginePool/coverage``, for `junction test --coverage`).
    /// - Returns: The bundle.
    /// - Throws: `BundleError` listing every problem as `FILE:LINE:COLUMN` (or `FILE:LINE`
    ///   for Lua): no such directory, a missing or invalid manifest, route table or test file
    ///   (a test's context is checked by the manifest's `context:`, its source by its
    ///   `sources:`), a rule that does not compile or fails while loading, state a rule
    ///   would keep between evaluations.
    public static func load(
        directory: String, limits: SandboxLimits = SandboxLimits(), logger: Logger = Logger(label: "junction.lua"),
        coverage: Bool = false
    ) throws(BundleError) -> RuleBundle {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue
        else {
            let what = FileManager.default.fileExists(atPath: directory) ? "not a directory" : "no such directory"
            throw BundleError([
                Diagnostic(
                    .error, "\(what); give the bundle's folder, the one with manifest.yaml and routes.yaml",
                    at: SourceLocation(file: directory, line: 1, column: 1))
            ])
        }
        /// `name` inside the bundle, as the caller named the bundle (paths in messages
        /// stay relative when the bundle's was).
        func inside(_ name: String) -> String { directory.hasSuffix("/") ? directory + name : directory + "/" + name }
        var problems: [Diagnostic] = []

        /// The file's text, or `nil` with a diagnostic in `list`.
        func text(at path: String, into list: inout [Diagnostic]) -> String? {
            guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8)
            else {
                list.append(
                    Diagnostic(
                        .error, "cannot read the file as UTF-8 text", at: SourceLocation(file: path, line: 1, column: 1)
                    ))
                return nil
            }
            return text
        }
        /// The first of `names` that exists, read; a diagnostic when none does.
        func read(_ names: [String], what: String) -> (path: String, text: String)? {
            for name in names {
                let path = inside(name)
                guard FileManager.default.fileExists(atPath: path) else { continue }
                return text(at: path, into: &problems).map { (path, $0) }
            }
            problems.append(
                Diagnostic(
                    .error, "the bundle has no \(names.joined(separator: " or ")) (\(what))",
                    at: SourceLocation(file: directory, line: 1, column: 1)))
            return nil
        }

        // The rules compile on a thread of their own while this one reads the manifest,
        // the route table and the tests: they need none of those, and each is a good part
        // of the load. Problems are still listed in the order of the files.
        var sources: [RuleSource] = []
        var sourceProblems: [Diagnostic] = []
        let listing = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        for name in listing.filter({ $0.hasSuffix(".lua") }).sorted() {
            if let source = text(at: inside(name), into: &sourceProblems) {
                sources.append(RuleSource(name: name, text: source))
            }
        }
        let compiling = startCompiling(sources, limits: limits, logger: logger, coverage: coverage)

        var manifest: BundleManifest?
        if let (path, text) = read(["manifest.yaml", "manifest.yml", "manifest.json"], what: "its name and version") {
            do { manifest = try BundleManifest.load(text: text, file: path) } catch { problems += error.diagnostics }
        }
        var routes: RouteTable?
        if let (path, text) = read(["routes.yaml", "routes.yml", "routes.json"], what: "its route table") {
            do { routes = try RouteTable.load(text: text, file: path) } catch { problems += error.diagnostics }
        }
        problems += sourceProblems

        let testsFolder = inside("tests")
        let testFiles = ((try? FileManager.default.contentsOfDirectory(atPath: testsFolder)) ?? [])
            .filter { $0.hasSuffix(".yaml") || $0.hasSuffix(".yml") }.sorted()
            .map { testsFolder + "/" + $0 }

        var tests: [RuleTestCase] = []
        for path in testFiles {
            guard let source = text(at: path, into: &problems) else { continue }
            do {
                tests += try RuleTestCase.load(text: source, file: path, manifest: manifest)
            } catch { problems += error.diagnostics }
        }
        return try assemble(
            directory: directory, manifest: manifest, routes: routes, sources: sources, testFiles: testFiles,
            tests: tests, problems: problems, compiling: compiling)
    }

    /// Builds a bundle from its parts — what an artifact holds — compiling the rules
    /// exactly as ``load(directory:limits:logger:coverage:)`` does after reading a folder.
    /// - Parameters:
    ///   - directory: The name errors and findings put the bundle's files inside: for a
    ///     bundle from an artifact, what names the artifact to people (`shop.jbundle`), so a
    ///     rule's error reads `shop.jbundle/policies.lua:4`. Decode the route table and the
    ///     tests with the same name, so their locations agree.
    ///   - manifest: Its manifest.
    ///   - routes: Its route table.
    ///   - sources: Its Lua files, named relative to the bundle; they run in name order,
    ///     as a folder's do, whatever order they are given in.
    ///   - tests: Its rule tests, file by file.
    ///   - limits: The sandbox's budgets for its rules.
    ///   - logger: Receives the rules' `print` and `log.*` output.
    ///   - coverage: Whether the engines record which lines run.
    /// - Throws: `BundleError`: two sources of one name, a rule that does not compile or
    ///   fails while loading, state a rule would keep between evaluations.
    public init(
        directory: String, manifest: BundleManifest, routes: RouteTable, sources: [RuleSource],
        tests: [RuleTestCase], limits: SandboxLimits = SandboxLimits(),
        logger: Logger = Logger(label: "junction.lua"), coverage: Bool = false
    ) throws(BundleError) {
        let sorted = sources.sorted { $0.name < $1.name }
        var problems: [Diagnostic] = []
        for (earlier, later) in zip(sorted, sorted.dropFirst()) where earlier.name == later.name {
            problems.append(
                Diagnostic(
                    .error, "two rule files are named \"\(ContextSchema.shown(later.name))\"; give each its own name",
                    at: SourceLocation(file: directory, line: 1, column: 1)))
        }
        let testFiles = Set(tests.map(\.location.file))
        self = try Self.assemble(
            directory: directory, manifest: manifest, routes: routes, sources: sorted, testFiles: testFiles.sorted(),
            tests: tests, problems: problems,
            compiling: Self.startCompiling(sorted, limits: limits, logger: logger, coverage: coverage))
    }

    /// Compiles the rules on a thread of their own, so a folder's manifest, route table and
    /// tests are read meanwhile: the rules need none of those, and each is a good part of
    /// the load.
    private static func startCompiling(
        _ sources: [RuleSource], limits: SandboxLimits, logger: Logger, coverage: Bool
    ) -> BackgroundWork<Result<RuleEnginePool, LuaError>> {
        BackgroundWork { () -> Result<RuleEnginePool, LuaError> in
            Result { () throws(LuaError) in
                try RuleEnginePool(sources: sources, limits: limits, logger: logger, coverage: coverage)
            }
        }
    }

    /// The one way a bundle comes together, from a folder or from parts: the compiled
    /// engines, or every problem found, in the order of the files.
    private static func assemble(
        directory: String, manifest: BundleManifest?, routes: RouteTable?, sources: [RuleSource],
        testFiles: [String], tests: [RuleTestCase], problems: [Diagnostic],
        compiling: BackgroundWork<Result<RuleEnginePool, LuaError>>
    ) throws(BundleError) -> RuleBundle {
        var problems = problems
        var engines: RuleEnginePool?
        switch compiling.wait() {
        case .success(let pool):
            engines = pool
        case .failure(let error):
            let line = error.line ?? 1
            let file = directory.hasSuffix("/") ? directory + error.chunkName : directory + "/" + error.chunkName
            problems.append(
                Diagnostic(
                    .error, "\(error.message) [\(error.code)]", at: SourceLocation(file: file, line: line, column: 1)))
        }
        guard problems.isEmpty, let manifest, let routes, let engines else { throw BundleError(problems) }
        return RuleBundle(
            directory: directory, manifest: manifest, routes: routes, sources: sources, engines: engines,
            testFiles: testFiles, tests: tests)
    }

    private init(
        directory: String, manifest: BundleManifest, routes: RouteTable, sources: [RuleSource],
        engines: RuleEnginePool, testFiles: [String], tests: [RuleTestCase]
    ) {
        self.directory = directory
        self.manifest = manifest
        self.routes = routes
        self.sources = sources
        self.engines = engines
        declarations = engines.declarations
        self.testFiles = testFiles
        self.tests = tests
    }
}
