import JunctionCore
import JunctionLua
import Junction

/// Finds fields read of a context key that may be absent, in a function that never tests
/// the key: `ctx.user.id` with no `if ctx.user`, `ctx.user and …`, `ctx.user == nil` or
/// `type(ctx.user)` in the same function. Every context key may be absent — a guest has
/// no `user`, an older app sends no `flags` — and indexing `nil` is an error, so the rule
/// fails for exactly those requests and its `on_error` decides for it.
///
/// A warning: a test in a helper the function calls, or a group policy that lets only
/// signed-in users reach the rule, is beyond it. Keys the schema declares as scalars are
/// left to ``ContextReadCheck``, which reports reading their fields as an error.
struct UnguardedContextReadCheck {
    let analysis: RuleAnalysis
    let schema: ContextSchema?
    let lua: LuaSourceText

    func findings() -> [Finding] {
        var findings: [Finding] = []
        var reported: Set<RuleAnalysis.Use> = []
        for use in analysis.unguardedContextReads {
            let path = use.name.split(separator: ".").map(String.init)
            guard mayHaveFields(path), reported.insert(use).inserted else { continue }
            let key = path.last ?? use.name
            let example = path == ["user"] ? " (a guest has no user)" : ""
            findings.append(
                Finding(
                    .warning, .unguardedContextRead,
                    "ctx.\(use.name) may be absent\(example) and this function reads its fields without testing it, "
                        + "so the rule fails for those requests and its on_error decides — test it first: "
                        + "`if not ctx.\(use.name) then … end`, or `ctx.\(use.name) and ctx.\(use.name).…`",
                    at: lua.location(of: [.name(key)], in: use.file, line: use.line, search: .near)))
        }
        return FindingLimits.limited(
            findings.sorted { UndefinedGlobalCheck.precedes($0, $1) }, "unguarded reads of context keys")
    }

    /// Whether the value at `path` can have fields as the schema declares it: a table, a
    /// list or anything; without a schema, anything may.
    private func mayHaveFields(_ path: [String]) -> Bool {
        guard var level = schema else { return true }
        for (depth, key) in path.enumerated() {
            switch level[key] {
            case .table(let nested)?:
                if depth == path.count - 1 { return true }
                level = nested
            case .list?, .any?:
                return true
            default:
                return false  // undeclared or a scalar: ContextReadCheck's error
            }
        }
        return true
    }
}
