import Foundation
import Junction
import JunctionCore
import JunctionShipping

/// `junction agent --logs URL`: the device's decision log, uploaded to a collector as an app
/// uploads it — each `--decide` decision recorded under the active bundle's `log:` policy,
/// the launch and every poll as a status line, and after each, a pass of the uploader.
/// Batches it cannot send wait in `STATE/logs` for the next pass, or the next run.
struct AgentLog {
    let uploader: DecisionLogUploader
    /// The app version the agent plays, written on every line.
    let appVersion: String
    /// The install id; only its hash is written.
    let installID: String

    /// The log of an agent, or `nil` without `--logs`.
    /// - Throws: `UsageError` for a token file that cannot be read or a token that cannot be sent.
    init?(_ command: AgentCommand, state: String, installID: String) throws(UsageError) {
        guard let collector = command.logs?.url else { return nil }
        var token: String?
        if let path = command.logTokenFile {
            let text: String
            do { text = try String(contentsOfFile: path, encoding: .utf8) } catch {
                throw UsageError("--log-token-file \(path): cannot be read: \(error.localizedDescription)")
            }
            token = text.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        let configuration: DecisionLogUploaderConfiguration
        do {
            var made = try DecisionLogUploaderConfiguration(collector: collector, bearerToken: token)
            made.exchangeTimeout = command.deadline.duration
            configuration = made
        } catch {
            throw UsageError("--log-token-file \(command.logTokenFile ?? ""): \(error)")
        }
        uploader = DecisionLogUploader(
            configuration: configuration, pending: PendingLogBatches(directory: state + "/logs"))
        appVersion = command.hostVersion.version.description
        self.installID = installID
    }

    /// Records a decision under the log policy of the bundle that decided it.
    func record(_ decision: Decision, context: ContextSnapshot, policy: DecisionLogPolicy) {
        uploader.decisions.record(decision, context: context, policy: policy, appVersion: appVersion)
    }

    /// Records the launch.
    func launched(_ status: UpdateStatus) {
        let event = UpdateEvent.launched(status.active, status.origin)
        if let line = DeviceStatusLine.make(
            event, status: status, appVersion: appVersion, installID: installID, time: Date())
        {
            uploader.status.append(line)
        }
    }

    /// Records a poll.
    func polled(_ poll: UpdatePoll) {
        if let line = DeviceStatusLine.make(poll, appVersion: appVersion, installID: installID) {
            uploader.status.append(line)
        }
    }

    /// One pass of the uploader.
    func upload() async -> DecisionLogUploadPass {
        await uploader.flush()
    }
}
