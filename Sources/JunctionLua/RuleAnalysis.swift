/// What a bundle's compiled code tells about mistakes no single test shows, for
/// `junction check` (``RuleEnginePool/analysis()``): globals read that nothing defines,
/// fields read that a sandbox library lacks, globals assigned where that always fails,
/// the literals `req.source` is compared with, the literal targets of the redirects
/// declared functions return, and which of them cannot answer with `respond`.
///
/// Read from bytecode, so it sees every function of every file, and only what the code
/// says: names a rule builds at run time (`_G[name]`), text it compiles with `load` and
/// targets it builds (`"https://" .. host`, a variable) are out of its reach.
package struct RuleAnalysis: Sendable, Hashable {
    /// A name used at a line of a bundle file.
    package struct Use: Sendable, Hashable {
        /// The name, or the literal compared with `req.source`.
        package var name: String
        /// The file, as the bundle names it (`rules.lua`).
        package var file: String
        /// The line, from the bytecode.
        package var line: Int

        /// A use.
        /// - Parameters:
        ///   - name: The name or literal.
        ///   - file: The bundle's name of the file.
        ///   - line: The line.
        package init(name: String, file: String, line: Int) {
            self.name = name
            self.file = file
            self.line = line
        }
    }

    /// A field read from a sandbox library table (`url.encdoe`).
    package struct FieldUse: Sendable, Hashable {
        /// The library's global name (`url`).
        package var table: String
        /// The field (`encdoe`).
        package var field: String
        /// The file, as the bundle names it.
        package var file: String
        /// The line, from the bytecode.
        package var line: Int
    }

    /// Reads of globals that neither the sandbox nor the bundle defines, in file order,
    /// one per name and line.
    package var undefinedGlobals: [Use] = []
    /// Reads of fields a sandbox library does not have, in file order, one per field and line.
    package var undefinedFields: [FieldUse] = []
    /// Assignments to globals in functions that can run after the bundle has loaded, when
    /// globals are read-only, so they fail whenever they run; one per name and line.
    package var globalAssignments: [Use] = []
    /// The string literals `req.source` is compared with (`==`, `~=`), one per literal and line.
    package var sourceComparisons: [Use] = []
    /// The paths read from the context (`ctx.user.id` is `user` and `user.id`), where
    /// `ctx` is a variable of that name, one per path and line, in file order.
    package var contextReads: [Use] = []
    /// The context paths whose fields a function reads without testing the path itself
    /// (`ctx.user.id` in a function with no `if ctx.user`, `ctx.user and`, `ctx.user == nil`
    /// or `type(ctx.user)`): the path, `user`, one per path and line, in file order. Every
    /// context key may be absent, and indexing `nil` is an error.
    package var unguardedContextReads: [Use] = []
    /// Reads of `req` fields that a request does not have (`segmants`, `route.nmae`), one
    /// per field and line, in file order: always `nil`.
    package var requestFieldReads: [Use] = []
    /// The string literals given to `version.compare` (`version.compare(ctx.app_version,
    /// "6.1 beta")`), one per literal and line, in file order.
    package var versionLiterals: [Use] = []
    /// The context paths compared with `<`, `<=`, `>` or `>=` (`ctx.app_version < "6.10"`),
    /// one per path and line, in file order.
    package var contextOrderings: [Use] = []
    /// The targets of `redirect("https://…")` calls, written as one string literal, in the
    /// own body of each declared function (an interceptor's `run`, a group policy, a
    /// fallback), by the function's index in ``RuleDeclarations``; one per target and
    /// line, in code order, and only calls whose result the function uses.
    ///
    /// Functions nested in a declared one are not its body: whether they run is not
    /// known. Nor is a function another declared one calls. A declared function defined
    /// on the same lines as another function of its file that calls `redirect`
    /// differently (`function() ... end` twice on one line) has none here: which of the
    /// two it is cannot be told. A function compiled by `load` is of no file, unless the
    /// rule gave it a file's name, which misleads only this analysis.
    package var redirectTargets: [Int: [Use]] = [:]
    /// The declared functions, by their index in ``RuleDeclarations``, that cannot answer
    /// with `respond(...)`: neither their code nor a function nested in it reads the global
    /// `respond`, and no function outside every declared one does (a helper any rule may
    /// call, or a file's main code keeping `respond` in a local). A function whose code is
    /// not known (compiled by `load`, of no file) is never among them, nor is one on the
    /// lines of a function that reads `respond`: what cannot be told may respond.
    package var nonResponding: Set<Int> = []
    /// The declared functions, by their index in ``RuleDeclarations``, whose own body calls
    /// `version.compare` and reads `redirect`: rules that may route some app versions
    /// elsewhere (`if version.compare(ctx.app_version, "6.1") < 0 then return redirect(…)`).
    /// Whether they do for the versions concerned is for the bundle's tests to prove.
    package var versionRouting: Set<Int> = []
    /// Every global the sandbox or the bundle defines, sorted: the names a misspelt one
    /// may have meant.
    package var definedGlobals: [String] = []
    /// The fields of each sandbox library table (`url` → `build`, `decode`, …), sorted.
    package var libraryFields: [String: [String]] = [:]

    /// Lua 5.4's standard globals that the sandbox leaves out: no files, processes, clocks,
    /// other code or garbage collector for rules (docs/rules.md, "What a rule cannot do").
    package static let withheldGlobals: Set<String> = [
        "collectgarbage", "coroutine", "debug", "dofile", "io", "loadfile", "os", "package", "require", "warn",
    ]

    /// The fields of `req` (docs/rules.md, "`req` and `ctx`").
    package static let requestFields: Set<String> = Set(RequestField.allCases.map { "\($0.name)" })
    /// The fields of `req.route`.
    package static let routeFields: Set<String> = ["name", "pattern", "target", "groups", "exported", "meta"]

    /// Nothing found.
    package init() {}
}
