import JunctionCore
import JunctionLua
import Junction

/// Finds reads of the context that its schema (the manifest's `context:`) rules out:
/// `ctx.app_verison` where `app_version` is declared, `ctx.usr.id` where `user` is,
/// `ctx.hour.value` where `hour` is an int. Such a read is always `nil` (or an error), so
/// the rule quietly takes another branch on every device.
///
/// It sees `ctx.a.b` written directly, and through a local that holds a part of it
/// (`local user = ctx.user` then `user.id`), where `ctx` is a variable of that name
/// (``RuleAnalysis/contextReads``). Keys built at run time (`ctx[name]`) are beyond it, and
/// a bundle whose manifest declares no schema is not checked.
struct ContextReadCheck {
    let analysis: RuleAnalysis
    let schema: ContextSchema?
    let lua: LuaSourceText

    func findings() -> [Finding] {
        guard let schema else { return [] }
        var findings: [Finding] = []
        var reported: Set<RuleAnalysis.Use> = []
        for use in analysis.contextReads {
            guard let problem = Self.problem(reading: use.name.split(separator: ".").map(String.init), in: schema)
            else { continue }
            // `ctx.usr.id` reads `usr` too, and `local user = ctx.usr` then `user.id` reads it
            // again: one finding per wrong path and file, where it is first read.
            let key = RuleAnalysis.Use(name: problem.path, file: use.file, line: 0)
            guard reported.insert(key).inserted else { continue }
            let field = problem.path.split(separator: ".").last.map(String.init) ?? problem.path
            findings.append(
                Finding(
                    .error, .unknownContextKey, problem.message,
                    at: lua.location(
                        of: [.field(table: "ctx", name: field), .name(field)], in: use.file, line: use.line,
                        search: .near)))
        }
        return FindingLimits.limited(
            findings.sorted { UndefinedGlobalCheck.precedes($0, $1) }, "reads of undeclared context keys")
    }

    /// "an" before a vowel, else "a".
    static func article(_ type: ContextType) -> String {
        "aeiou".contains(type.description.first ?? "x") ? "an" : "a"
    }

    /// What is wrong with reading `path` from a context of `schema`, if anything: the
    /// shortest wrong prefix and the message for it.
    static func problem(reading path: [String], in schema: ContextSchema) -> (path: String, message: String)? {
        var level = schema
        var walked: [String] = []
        for key in path {
            let here = (walked + [key]).joined(separator: ".")
            guard let type = level[key] else {
                let parent = walked.isEmpty ? "ctx" : "ctx." + walked.joined(separator: ".")
                let scope =
                    walked.isEmpty ? "the manifest's context: schema" : "\(parent) (the manifest's context: schema)"
                let suggestion = NearestName.nearest(to: key, among: level.fields.map(\.name)).map {
                    "; did you mean \"\(parent).\($0)\"?"
                }
                return (
                    here,
                    "ctx.\(here) is not declared in \(scope), so it is always nil here\(suggestion ?? "") — fix the "
                        + "name, or declare it under context: in manifest.yaml"
                )
            }
            walked.append(key)
            switch type {
            case .table(let nested):
                level = nested
            case .any, .list:
                return nil  // what is inside is not declared key by key
            case .string, .int, .number, .bool, .version:
                guard walked.count < path.count else { return nil }
                let next = path[walked.count]
                return (
                    (walked + [next]).joined(separator: "."),
                    "ctx.\(walked.joined(separator: ".")) is \(Self.article(type)) \(type) (the manifest's context: "
                        + "schema), which has no "
                        + "field \(MessageText.quoted(next)) — read ctx.\(walked.joined(separator: ".")) itself"
                )
            }
        }
        return nil
    }
}
