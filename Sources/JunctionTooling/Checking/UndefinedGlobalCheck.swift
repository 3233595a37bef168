import JunctionCore
import JunctionLua
import Junction

/// Finds globals the bundle's code reads that neither the sandbox nor the bundle
/// defines (`rolout(...)` for `rollout`), and fields a sandbox library lacks
/// (`url.encdoe`), from the bytecode of every function of every file (``RuleAnalysis``).
///
/// Each is reported where it is read, with the nearest defined name; names Lua has but
/// the sandbox leaves out (`os`, `require`) say so instead. Names a rule builds at run
/// time (`_G[name]`) and code it compiles with `load` are beyond this check.
struct UndefinedGlobalCheck {
    let analysis: RuleAnalysis
    let lua: LuaSourceText

    func findings() -> [Finding] {
        var findings: [Finding] = []
        for use in analysis.undefinedGlobals {
            let name = MessageText.quoted(use.name)
            let message: String
            if RuleAnalysis.withheldGlobals.contains(use.name) {
                message =
                    "\(name) is not available to rules: the sandbox leaves out "
                    + UnreachableRouteCheck.list(RuleAnalysis.withheldGlobals.sorted())
                    + " — remove this use (docs/rules.md, \"What a rule cannot do\")"
            } else {
                message =
                    "global \(name) is not defined: neither the sandbox nor the bundle's files define it, so it is nil "
                    + "here\(NearestName.suggestion(for: use.name, among: analysis.definedGlobals)) — fix the name, or "
                    + "define it at the top level of one of the bundle's files"
            }
            findings.append(
                Finding(
                    .error, .undefinedGlobal, message,
                    at: lua.location(of: [.global(use.name)], in: use.file, line: use.line, search: .near)))
        }
        for use in analysis.undefinedFields {
            let fields = analysis.libraryFields[use.table] ?? []
            let suggestion = NearestName.nearest(to: use.field, among: fields).map {
                "; did you mean \"\(use.table).\($0)\"?"
            }
            findings.append(
                Finding(
                    .error, .undefinedGlobal,
                    "\(MessageText.quoted(use.table + "." + use.field)) is not defined: the sandbox's \(use.table) "
                        + "library has no field \(MessageText.quoted(use.field))\(suggestion ?? "") — fix the name",
                    at: lua.location(
                        of: [.field(table: use.table, name: use.field), .global(use.field)], in: use.file,
                        line: use.line, search: .near)))
        }
        return FindingLimits.limited(findings.sorted { Self.precedes($0, $1) }, "uses of undefined globals")
    }

    /// Whether `a` comes before `b` in the bundle: by file, line and column.
    static func precedes(_ a: Finding, _ b: Finding) -> Bool {
        guard let x = a.location, let y = b.location else { return a.location != nil && b.location == nil }
        return (x.file, x.line, x.column) < (y.file, y.line, y.column)
    }
}
