import Junction
import JunctionTooling

/// What `junction check` found in one bundle, and how it prints it.
struct CheckReport {
    /// One capabilities file given with `--app`, and whether its app loads the bundle.
    struct App {
        let file: CapabilitiesFile
        /// Whether its `host_version` is at least the manifest's `minimum_host_version`:
        /// only then is the bundle checked against it.
        let loadsBundle: Bool
        /// The manifest's `minimum_host_version`, when it has one.
        let minimumHostVersion: SemanticVersion?
    }

    /// The bundle folder as given.
    let bundle: String
    /// The findings; load failures as ``Finding/Code/loadError`` errors.
    let findings: [Finding]
    /// The findings the manifest's `allow:` accepts on purpose.
    var accepted: [CheckReview.Accepted] = []
    /// Whether the bundle loaded and compiled.
    let loaded: Bool
    /// The capabilities files given, in order; empty when the bundle did not load.
    var apps: [App] = []
    /// Whether any were given (`--app`): the JSON report lists them then.
    var appsGiven = false

    var errors: Int { findings.count { $0.severity == .error } }
    var warnings: Int { findings.count { $0.severity == .warning } }

    /// Loads and checks a bundle folder, against the capabilities of app versions.
    static func run(directory: String, apps: [CapabilitiesFile] = []) -> CheckReport {
        run(LoadedBundle.load(directory, showLogs: false), directory: directory, apps: apps)
    }

    /// Checks a bundle already loaded from `directory`, against the capabilities of app versions.
    static func run(
        _ result: Result<LoadedBundle, BundleError>, directory: String, apps: [CapabilitiesFile] = []
    ) -> CheckReport {
        switch result {
        case .success(let loaded):
            let minimum = loaded.bundle.manifest.minimumHostVersion
            let review = BundleChecker(decider: loaded.decider).review(apps: apps)
            var report = CheckReport(bundle: directory, findings: review.findings, loaded: true)
            report.accepted = review.accepted
            report.apps = apps.map { file in
                App(
                    file: file,
                    loadsBundle: loaded.bundle.manifest.supports(hostVersion: file.capabilities.hostVersion),
                    minimumHostVersion: minimum)
            }
            report.appsGiven = !apps.isEmpty
            return report
        case .failure(let error):
            var report = CheckReport(
                bundle: directory, findings: error.diagnostics.map(Finding.init(loadFailure:)), loaded: false)
            report.appsGiven = !apps.isEmpty
            return report
        }
    }

    /// `FILE:LINE:COL: warning: message [code]` per finding, `FILE: note: …` per
    /// capabilities file whose app never loads the bundle, then `DIR: ok`,
    /// `DIR: N errors, M warnings` or `DIR: does not load (N errors)`.
    var text: [String] {
        var lines = findings.map { finding in
            "\(finding.location?.description ?? bundle): \(finding.severity.rawValue): \(finding.message) [\(finding.code)]"
        }
        for accepted in accepted {
            let finding = accepted.finding
            let allowance = accepted.allowance
            lines.append(
                "\(finding.location?.description ?? bundle): accepted: \(finding.message) [\(finding.code)] — allowed "
                    + "\(allowance.location.map { "at \($0) " } ?? "")because: \(allowance.reason)")
        }
        for app in apps where !app.loadsBundle {
            let version = app.file.capabilities.hostVersion
            lines.append(
                "\(app.file.path): note: host_version \(version) is below the bundle's minimum_host_version "
                    + "\(app.minimumHostVersion.map { "\($0)" } ?? "none"): that app never loads this bundle, so "
                    + "nothing is checked against it")
        }
        if !loaded {
            lines.append("\(bundle): does not load (\(Self.count(errors, "error")))")
        } else if findings.isEmpty {
            lines.append("\(bundle): ok" + (accepted.isEmpty ? "" : " (\(accepted.count) accepted on purpose)"))
        } else {
            lines.append(
                "\(bundle): \(Self.count(errors, "error")), \(Self.count(warnings, "warning"))"
                    + (accepted.isEmpty ? "" : ", \(accepted.count) accepted on purpose"))
        }
        return lines
    }

    /// `{"bundle": DIR, "errors": n, "warnings": m, "findings": [{"severity", "code",
    /// "message", "file", "line", "column"}]}`; a finding without a place has `null` ones.
    /// With allowances that accept findings, `"accepted": [{"code", "at", "reason",
    /// "message", "file", "line"}]`. With `--app`, then `"apps": [{"file", "host_version", "loads_bundle"}]` (empty when
    /// the bundle does not load).
    var json: String {
        let items = findings.map { finding in
            var item = JSONWriter()
            item.add("severity", .string(finding.severity.rawValue))
            item.add("code", .string(finding.code.rawValue))
            item.add("message", .string(finding.message))
            if let location = finding.location {
                item.add("file", .string(location.file))
                item.add("line", .raw(String(location.line)))
                item.add("column", .raw(String(location.column)))
            } else {
                item.add("file", .null)
                item.add("line", .null)
                item.add("column", .null)
            }
            return item.rendered
        }
        var object = JSONWriter()
        object.add("bundle", .string(bundle))
        object.add("errors", .raw(String(errors)))
        object.add("warnings", .raw(String(warnings)))
        object.add("findings", .raw("[" + items.joined(separator: ", ") + "]"))
        if !accepted.isEmpty {
            let listed = accepted.map { accepted in
                var item = JSONWriter()
                item.add("code", .string(accepted.finding.code.rawValue))
                item.add("at", .string(accepted.allowance.subject))
                item.add("reason", .string(accepted.allowance.reason))
                item.add("message", .string(accepted.finding.message))
                item.add("file", accepted.finding.location.map { .string($0.file) } ?? .null)
                item.add("line", accepted.finding.location.map { .raw(String($0.line)) } ?? .null)
                return item.rendered
            }
            object.add("accepted", .raw("[" + listed.joined(separator: ", ") + "]"))
        }
        if appsGiven {
            let described = apps.map { app in
                var item = JSONWriter()
                item.add("file", .string(app.file.path))
                item.add("host_version", .string(app.file.capabilities.hostVersion.description))
                item.add("loads_bundle", .raw(app.loadsBundle ? "true" : "false"))
                return item.rendered
            }
            object.add("apps", .raw("[" + described.joined(separator: ", ") + "]"))
        }
        return object.rendered
    }

    private static func count(_ number: Int, _ noun: String) -> String {
        "\(number) \(noun)\(number == 1 ? "" : "s")"
    }
}
