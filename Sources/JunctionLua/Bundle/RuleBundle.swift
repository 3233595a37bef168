public import JunctionCore
public import Logging

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
    /// Whether its parts are bytes this process's code validated before (an update
    /// re-opened at launch under its acceptance stamp): the patterns its rules declare are
    /// then compiled without being compared with each other again.
    package internal(set) var validatedBefore = false

    /// Builds a bundle from its parts — what an artifact holds — compiling the rules
    /// exactly as `RuleBundle.load(directory:)` (JunctionAuthoring) does after reading a folder.
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
        let testFiles = Set(tests.map(\.location.file))
        self = try Self.assemble(
            directory: directory, manifest: manifest, routes: routes, sources: sorted, testFiles: testFiles.sorted(),
            tests: tests, problems: Self.sameNames(sorted, directory: directory),
            compiling: Self.startCompiling(sorted, limits: limits, logger: logger, coverage: coverage))
    }

    /// A problem for each rule file named as the one before it in `sorted`.
    static func sameNames(_ sorted: [RuleSource], directory: String) -> [Diagnostic] {
        zip(sorted, sorted.dropFirst()).filter { $0.name == $1.name }.map { _, later in
            Diagnostic(
                .error, "two rule files are named \"\(ContextSchema.shown(later.name))\"; give each its own name",
                at: SourceLocation(file: directory, line: 1, column: 1))
        }
    }

    /// What a bundle's reader found besides its rules: each part that loaded, the test
    /// files, and every problem so far, in the order of the files.
    package struct ReadParts {
        /// The manifest, when it loaded.
        package var manifest: BundleManifest?
        /// The route table, when it loaded.
        package var routes: RouteTable?
        /// The paths of the rule-test files, sorted.
        package var testFiles: [String]
        /// The rule tests, file by file.
        package var tests: [RuleTestCase]
        /// Every problem found reading them.
        package var problems: [Diagnostic]

        /// The parts a reader found.
        package init(
            manifest: BundleManifest?, routes: RouteTable?, testFiles: [String], tests: [RuleTestCase],
            problems: [Diagnostic]
        ) {
            self.manifest = manifest
            self.routes = routes
            self.testFiles = testFiles
            self.tests = tests
            self.problems = problems
        }
    }

    /// Compiles `sources` on a thread of their own while `read` reads the rest of the
    /// bundle on this one — the rules need none of it, and each is a good part of the
    /// load — then builds the bundle, or throws every problem: `read`'s first, in the
    /// order of the files, then the rules'.
    /// - Parameters:
    ///   - directory: The name errors put the bundle's files inside.
    ///   - sources: The Lua files, in the order they run.
    ///   - limits: The sandbox's budgets for its rules.
    ///   - logger: Receives the rules' `print` and `log.*` output.
    ///   - coverage: Whether the engines record which lines run.
    ///   - read: Reads the manifest, the route table and the tests.
    /// - Returns: The bundle.
    /// - Throws: `BundleError` with every problem found.
    package static func assemble(
        directory: String, sources: [RuleSource], limits: SandboxLimits, logger: Logger, coverage: Bool,
        readingMeanwhile read: () -> ReadParts
    ) throws(BundleError) -> RuleBundle {
        let compiling = startCompiling(sources, limits: limits, logger: logger, coverage: coverage)
        let parts = read()
        return try assemble(
            directory: directory, manifest: parts.manifest, routes: parts.routes, sources: sources,
            testFiles: parts.testFiles, tests: parts.tests, problems: parts.problems, compiling: compiling)
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
