import JunctionCore
import JunctionLua
import Junction

/// Finds versions written so that they do not do what was meant:
///
/// - `bad-version-literal` (error): a literal given to `version.compare` that is not a
///   version (`"6.1 beta"`), so the call fails on every request that reaches it.
/// - `version-compared-as-text` (error): a context key the schema declares a `version`
///   compared with `<`, `<=`, `>` or `>=`, which compares text (`"6.10" < "6.9"`) or fails
///   against a number.
/// - `prerelease-host-version` (warning): a `minimum_host_version` with a pre-release
///   (`6.1-beta`), which lets pre-release builds load the bundle and is easily meant as
///   the release; the grammar is checked when the manifest loads.
struct VersionCheck {
    let analysis: RuleAnalysis?
    let manifest: BundleManifest
    let directory: String?
    let lua: LuaSourceText

    func findings() -> [Finding] {
        var findings: [Finding] = []
        for use in analysis?.versionLiterals ?? [] {
            let problem: String
            do {
                _ = try SemanticVersion(parsing: use.name)
                continue
            } catch {
                problem = "\(error)"
            }
            findings.append(
                Finding(
                    .error, .badVersionLiteral,
                    "version.compare is given a literal that is not a version (\(problem)), so the call fails on "
                        + "every request that reaches it — fix the literal",
                    at: lua.location(of: [.string(use.name)], in: use.file, line: use.line, search: .near)))
        }
        for use in analysis?.contextOrderings ?? [] where type(at: use.name) == .version {
            let field = use.name.split(separator: ".").last.map(String.init) ?? use.name
            findings.append(
                Finding(
                    .error, .versionComparedAsText,
                    "ctx.\(use.name) is a version (the manifest's context: schema), and <, <=, > and >= compare it as "
                        + "text, where \"6.10\" comes before \"6.9\" (or fail against a number) — compare with "
                        + "version.compare(ctx.\(use.name), \"6.1\") < 0",
                    at: location(of: field, in: use.file, line: use.line)))
        }
        findings = FindingLimits.limited(
            findings.sorted { UndefinedGlobalCheck.precedes($0, $1) }, "versions written as text")
        if let minimum = manifest.minimumHostVersion, !minimum.preRelease.isEmpty {
            var release = minimum
            release.preRelease = []
            release.build = []
            findings.append(
                Finding(
                    .warning, .prereleaseHostVersion,
                    "minimum_host_version \(minimum) is a pre-release: builds of \(minimum) and later pre-releases "
                        + "load the bundle, earlier pre-releases of \(release) refuse it — if the bundle is for the "
                        + "\(release) release and later, write minimum_host_version: \"\(release)\"",
                    at: manifestLocation()))
        }
        return findings
    }

    /// Where `name` is on `line`, or the line's start: the comparison may read a local
    /// holding the key, assigned lines before.
    private func location(of name: String, in file: String, line: Int) -> SourceLocation {
        let found = lua.location(of: [.name(name)], in: file, line: line, search: .near)
        return found.line == line ? found : lua.location(of: [], in: file, line: line, search: .near)
    }

    /// The type the schema declares at a dotted path, if it declares one.
    private func type(at path: String) -> ContextType? {
        guard var level = manifest.context else { return nil }
        let keys = path.split(separator: ".").map(String.init)
        for (depth, key) in keys.enumerated() {
            guard let type = level[key] else { return nil }
            if depth == keys.count - 1 { return type }
            guard case .table(let nested) = type else { return nil }
            level = nested
        }
        return nil
    }

    /// Where the manifest says `minimum_host_version`, as the capability check places it.
    private func manifestLocation() -> SourceLocation? {
        directory.flatMap { BundleFileText(directory: $0, names: ["manifest.yaml", "manifest.yml", "manifest.json"]) }
            .map { $0.location(ofKey: "minimum_host_version") ?? $0.start }
    }
}
