import Foundation
import Junction
import JunctionShipping
import JunctionArtifact
import JunctionAuthoring
import JunctionCore
import JunctionLua
import Logging

/// What `junction agent`'s options come to: the channel, the device's acceptance policy,
/// its store, the embedded artifact and how to poll. ArgumentParser has read the values
/// (exit 64 for one an option does not take); what needs a file or the bundle's schema —
/// the keys, the state folder, the embedded bundle, the context — is checked here, before
/// anything is launched, so a mistake exits 2 with what and where.
struct AgentSetup {
    var channel: URL
    var policy: AcceptancePolicy
    var store: BundleStore
    var embedded: [UInt8]
    var configuration: UpdaterConfiguration
    var transport: any UpdateTransport
    var logger: Logger
    /// The `--context` values, typed by the active bundle's schema at each decision.
    var context: ContextArguments
    /// The decision log, with `--logs`.
    var log: AgentLog?

    init(_ command: AgentCommand) throws(UsageError) {
        channel = command.channel.url

        guard !command.pubkey.isEmpty else { throw UsageError("--pubkey: give at least one public key file") }
        var keys: [VerificationKey] = []
        for path in command.pubkey {
            do { keys.append(try KeyFile.readVerificationKey(at: path)) } catch {
                throw UsageError("--pubkey \(path): \(error)")
            }
        }
        do { context = try ContextArguments(command.context) } catch { throw UsageError(error.message) }

        do {
            try FileManager.default.createDirectory(atPath: command.state, withIntermediateDirectories: true)
        } catch {
            throw UsageError("--state \(command.state): cannot create it: \(error.localizedDescription)")
        }
        let directory = URL(fileURLWithPath: command.state).standardizedFileURL.path
        var logger = Logger(label: "junction.update") { StreamLogHandler.standardError(label: $0) }
        // Every poll is printed as an event; the log adds only what no event says.
        logger.logLevel = command.verbose ? .info : .error
        store = BundleStore(directory: directory, logger: logger)

        let installID: String
        if let given = command.installID {
            installID = given.id
        } else {
            do { installID = try store.installID() } catch {
                throw UsageError("--state \(command.state): the install id cannot be kept there: \(error)")
            }
        }

        log = try AgentLog(command, state: directory, installID: installID)

        var trusted = keys
        (embedded, trusted) = try Self.embedded(command.embedded, keys: keys)
        policy = AcceptancePolicy(
            keyring: Keyring(trusted), hostVersion: command.hostVersion.version, channel: command.channel.channelName,
            installID: installID,
            ruleLogger: logger)
        configuration = UpdaterConfiguration(
            interval: command.interval.duration, intervalSpread: command.once ? 0 : 0.1,
            attemptDeadline: command.deadline.duration)
        transport = channel.isFileURL ? FileTransport() : HTTPTransport.make()
        self.logger = logger
    }

    /// The embedded artifact and the keys that vouch for it: a `.jbundle` as it is (signed by
    /// one of `keys`), or a folder or nothing built in memory and signed by a throwaway key
    /// added to the keyring. Its private half is never written and gone when this returns, so
    /// it can sign nothing else.
    private static func embedded(_ path: String?, keys: [VerificationKey]) throws(UsageError) -> (
        [UInt8], [VerificationKey]
    ) {
        var isDirectory: ObjCBool = false
        if let path, FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue {
            do { return (try ArtifactFile.read(path, limits: .default), keys) } catch {
                throw UsageError("--embedded \(path): \(error)")
            }
        }
        let bundle: RuleBundle
        if let path {
            guard isDirectory.boolValue else { throw UsageError("--embedded \(path): no such file or folder") }
            do { bundle = try RuleBundle.load(directory: path) } catch {
                throw UsageError("--embedded \(path): the bundle does not load:\n\(error)")
            }
        } else {
            do {
                bundle = try RuleBundle(
                    directory: "embedded",
                    manifest: BundleManifest(name: "embedded", version: .integer(0)),
                    routes: try RouteTable(routes: []), sources: [], tests: [])
            } catch { throw UsageError("the empty embedded bundle cannot be built: \(error)") }
        }
        let throwaway = SigningKey()
        let now = Date()
        do {
            let bytes = try BundleBuildCommand.artifact(
                of: bundle, created: now.addingTimeInterval(-60), expires: now.addingTimeInterval(3_650 * 86_400),
                key: throwaway)
            return (bytes, keys + [throwaway.publicKey])
        } catch { throw UsageError("--embedded \(path ?? "(none)"): cannot be built: \(error)") }
    }
}
