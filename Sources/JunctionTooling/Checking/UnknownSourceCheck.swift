import JunctionCore
import JunctionLua
import Junction

/// Finds comparisons of `req.source` with a string literal that is none of the bundle's
/// request sources (``BundleManifest/knownSources``: the standard five and those the
/// manifest declares): `req.source == "pusj"` never holds, `~=` always does.
///
/// It sees `req.source == "x"`, `"x" == req.source`, `~=`, and a local that holds
/// `req.source` for its whole life (`local s = req.source`), where `req` is a variable
/// of that name (``RuleAnalysis/sourceComparisons``).
struct UnknownSourceCheck {
    let analysis: RuleAnalysis
    let knownSources: [RequestSource]
    let lua: LuaSourceText

    func findings() -> [Finding] {
        let known = knownSources.map(\.rawValue)
        let shown = known.prefix(12).joined(separator: ", ") + (known.count > 12 ? ", …" : "")
        let findings = analysis.sourceComparisons.filter { !known.contains($0.name) }.map { use in
            Finding(
                .error, .unknownSource,
                "req.source is compared with \(MessageText.quoted(use.name)), which is not a request source of this "
                    + "bundle (\(shown)), so no request has it"
                    + "\(NearestName.suggestion(for: use.name, among: known)) — fix the spelling, or declare the "
                    + "source in the manifest's sources: list",
                at: lua.location(
                    of: [.compared(use.name), .string(use.name), .name("source")], in: use.file, line: use.line,
                    search: .near))
        }
        return FindingLimits.limited(
            findings.sorted { UndefinedGlobalCheck.precedes($0, $1) }, "comparisons with unknown sources")
    }
}
