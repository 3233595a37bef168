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
    ///   - exactCounts: Whether traces count every instruction; corpora keep the apps'
    ///     interval, as a device decides.
    static func load(_ directory: String, coverage: Bool = false, showLogs: Bool, exactCounts: Bool = true)
        -> Result<LoadedBundle, BundleError>
    {
        do {
            // The CLI counts every instruction (an interval of 1), so traces show exact counts;
            // apps keep the default interval, which counts in steps of 1,000 for speed.
            let limits = exactCounts ? SandboxLimits(instructionInterval: 1) : SandboxLimits()
            let bundle = try RuleBundle.load(
                directory: directory, limits: limits, logger: ruleLogger(showLogs), coverage: coverage)
            return .success(LoadedBundle(bundle: bundle, decider: try Decider(bundle: bundle)))
        } catch {
            return .failure(error)
        }
    }

    /// The rules' `print` and `log.*` lines: to standard error, or nowhere.
    static func ruleLogger(_ showLogs: Bool) -> Logger {
        Logger(label: "junction.lua") { _ in
            showLogs ? RuleLogHandler() as any LogHandler : SwiftLogNoOpLogHandler()
        }
    }

    /// `name@version`.
    var label: String { "\(bundle.manifest.name)@\(bundle.manifest.version)" }
}
