import Junction

/// What `junction check` found in one bundle, and how it prints it.
struct CheckReport {
    /// The bundle folder as given.
    let bundle: String
    /// The findings; load failures as ``Finding/Code/loadError`` errors.
    let findings: [Finding]
    /// Whether the bundle loaded and compiled.
    let loaded: Bool

    var errors: Int { findings.count { $0.severity == .error } }
    var warnings: Int { findings.count { $0.severity == .warning } }

    /// Loads and checks a bundle folder.
    static func run(directory: String) -> CheckReport {
        run(LoadedBundle.load(directory, showLogs: false), directory: directory)
    }

    /// Checks a bundle already loaded from `directory`.
    static func run(_ result: Result<LoadedBundle, BundleError>, directory: String) -> CheckReport {
        switch result {
        case .success(let loaded):
            return CheckReport(
                bundle: directory, findings: BundleChecker(decider: loaded.decider).check(), loaded: true)
        case .failure(let error):
            return CheckReport(
                bundle: directory, findings: error.diagnostics.map(Finding.init(loadFailure:)), loaded: false)
        }
    }

    /// `FILE:LINE:COL: warning: message [code]` per finding, then `DIR: ok`,
    /// `DIR: N errors, M warnings` or `DIR: does not load (N errors)`.
    var text: [String] {
        var lines = findings.map { finding in
            "\(finding.location?.description ?? bundle): \(finding.severity.rawValue): \(finding.message) [\(finding.code)]"
        }
        if !loaded {
            lines.append("\(bundle): does not load (\(Self.count(errors, "error")))")
        } else if findings.isEmpty {
            lines.append("\(bundle): ok")
        } else {
            lines.append("\(bundle): \(Self.count(errors, "error")), \(Self.count(warnings, "warning"))")
        }
        return lines
    }

    /// `{"bundle": DIR, "errors": n, "warnings": m, "findings": [{"severity", "code",
    /// "message", "file", "line", "column"}]}`; a finding without a place has `null` ones.
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
        return object.rendered
    }

    private static func count(_ number: Int, _ noun: String) -> String {
        "\(number) \(noun)\(number == 1 ? "" : "s")"
    }
}
