import JunctionCore
import JunctionLua
import Junction

/// Finds functions that can run after the bundle has loaded — rules, helpers they call,
/// functions made inside them — and assign a global (`total = 1` without `local`).
/// Globals are read-only once the bundle has loaded, so the assignment fails whenever it
/// runs, and the rule with it (``RuleAnalysis/globalAssignments``). Code that runs only
/// while the bundle loads defines globals that way and is not reported.
struct GlobalAssignmentCheck {
    let analysis: RuleAnalysis
    let lua: LuaSourceText

    func findings() -> [Finding] {
        let findings = analysis.globalAssignments.map { use in
            let name = MessageText.quoted(use.name)
            let local = use.name.count <= MessageText.shownLength ? "local \(use.name) = …" : "local …"
            return Finding(
                .error, .globalAssignment,
                "this function assigns the global \(name), but globals are read-only once the bundle has loaded, "
                    + "so this fails whenever it runs — make it a local (\(local)), or define the global at the top "
                    + "level of the file",
                at: lua.location(of: [.global(use.name)], in: use.file, line: use.line, search: .near))
        }
        return FindingLimits.limited(
            findings.sorted { UndefinedGlobalCheck.precedes($0, $1) }, "assignments to globals")
    }
}
