import JunctionCore

extension UpdateRefusal {
    /// The most diagnostics a message lists; ``UpdateRefusal/diagnostics`` keeps them all.
    static let listedDiagnostics = 5

    /// `bundleInvalid`, listing the first diagnostics.
    static func bundleInvalid(_ label: String, _ diagnostics: [Diagnostic]) -> UpdateRefusal {
        let shown = diagnostics.prefix(listedDiagnostics).map(\.description).joined(separator: "; ")
        let more = diagnostics.count > listedDiagnostics ? " (and \(diagnostics.count - listedDiagnostics) more)" : ""
        return UpdateRefusal(
            .bundleInvalid,
            "\(label) does not load: \(shown)\(more); fix it, run junction check and junction test, and build it again",
            diagnostics: diagnostics)
    }
}
