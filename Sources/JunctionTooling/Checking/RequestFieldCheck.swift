import JunctionCore
import JunctionLua
import Junction

/// Finds reads of `req` fields a request does not have: `req.segmants`, `req.parms`,
/// `req.route.nmae`. Such a read is always `nil`, so the rule fails further on (`#nil`,
/// indexing `nil`) or quietly takes another branch, on every request.
///
/// It sees `req.x` and `req.route.x` where `req` is a variable of that name
/// (``RuleAnalysis/requestFieldReads``); the fields are those of docs/rules.md,
/// "`req` and `ctx`".
struct RequestFieldCheck {
    let analysis: RuleAnalysis
    let lua: LuaSourceText

    func findings() -> [Finding] {
        let findings = analysis.requestFieldReads.map { use in
            let parts = use.name.split(separator: ".").map(String.init)
            let field = parts.last ?? use.name
            let (table, known) =
                parts.count > 1
                ? ("req.route", RuleAnalysis.routeFields.sorted())
                : ("req", RuleAnalysis.requestFields.sorted())
            return Finding(
                .error, .unknownRequestField,
                "\(table).\(field) is not a field of \(table) (\(known.joined(separator: ", "))), so it is always nil"
                    + "\(NearestName.suggestion(for: field, among: known)) — fix the name",
                at: lua.location(
                    of: [.field(table: parts.count > 1 ? "route" : "req", name: field), .name(field)], in: use.file,
                    line: use.line, search: .near))
        }
        return FindingLimits.limited(
            findings.sorted { UndefinedGlobalCheck.precedes($0, $1) }, "reads of fields a request does not have")
    }
}
