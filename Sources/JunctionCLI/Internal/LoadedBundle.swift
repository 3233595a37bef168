import Junction
import Logging

/// A bundle folder loaded for the CLI: the bundle and its decider, or every problem.
struct LoadedBundle {
    let bundle: RuleBundle
    let decider: Decider

    /// Loads `directory` and builds its decider.
    /// - Parameters:
    ///   - coverage: Whether the rules' engines record line coverage.
    ///   - showLogs: Whether the rules' `print` and `log.*` lines go to standard error.
    static func load(_ directory: String, coverage: Bool = false, showLogs: Bool) -> Result<LoadedBundle, BundleError> {
        let logger = Logger(label: "junction.lua") { _ in
            showLogs ? RuleLogHandler() as any LogHandler : SwiftLogNoOpLogHandler()
        }
        do {
            let bundle = try RuleBundle.load(directory: directory, logger: logger, coverage: coverage)
            return .success(LoadedBundle(bundle: bundle, decider: try Decider(bundle: bundle)))
        } catch {
            return .failure(error)
        }
    }

    /// `name@version`.
    var label: String { "\(bundle.manifest.name)@\(bundle.manifest.version)" }
}
