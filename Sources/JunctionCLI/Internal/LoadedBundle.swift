import Junction
import JunctionAuthoring
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
            // The CLI counts every instruction (an interval of 1), so traces show exact counts;
            // apps keep the default interval, which counts in steps of 1,000 for speed.
            let bundle = try RuleBundle.load(
                directory: directory, limits: SandboxLimits(instructionInterval: 1), logger: logger, coverage: coverage)
            return .success(LoadedBundle(bundle: bundle, decider: try Decider(bundle: bundle)))
        } catch {
            return .failure(error)
        }
    }

    /// `name@version`.
    var label: String { "\(bundle.manifest.name)@\(bundle.manifest.version)" }
}
