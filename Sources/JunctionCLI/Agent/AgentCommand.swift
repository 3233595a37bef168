import ArgumentParser
import Foundation
import Junction
import JunctionShipping
import JunctionArtifact
import JunctionCore
import Logging

/// `junction agent --channel URL --pubkey PUB --state DIR`: a headless device. It launches
/// from its state folder as an app would, polls the channel, prints every poll, and decides
/// the `--decide` URLs under whatever bundle is active after each one.
struct AgentCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "agent",
        abstract: "Run a headless device: poll a channel, take its updates, print each poll and decision.",
        discussion: """
            Launches from --state as an app does (the persisted update, verified again; else the \
            last-known-good; else the embedded bundle), without the network; then polls --channel \
            (https, http or file: …/channels/NAME.json, objects/ beside channels/) every --interval \
            seconds, sooner after a failure (exponential backoff with full jitter, Retry-After \
            honoured). Each poll is printed — activated, unchanged, refused or unreachable — \
            followed by the decision for each --decide URL under the active bundle, with the \
            --context values typed as eval and diff type them: by the active bundle's context: \
            schema when it declares one (app_version=6.2 is then the text 6.2 for a version key), \
            else as YAML types them (app_version=\\"6.2\\" is text). Values the launched \
            bundle's schema does not take exit 2; under an update whose schema does not take \
            them, each URL's line says why it was not decided. With --json, \
            one object per line with "event" (launched, activated, unchanged, refused, \
            unreachable, decision), "seq" and "reason" where they apply. The embedded bundle is \
            --embedded: a .jbundle signed by a --pubkey key, or a bundle folder (built in memory \
            and vouched for by a throwaway key that is never written); without it, an empty \
            bundle under which nothing matches. With --logs, the device keeps a decision log as an app \
            does — each decision under the active bundle's log: policy, the launch and each poll \
            as a status line — and uploads it to the collector after the launch and after each \
            poll (an "uploaded" event says what went); batches it cannot send wait in \
            --state/logs for the next pass or the next run. Exit status with --once: 0 activated or \
            unchanged, 1 refused, 3 unreachable; 2 when the keys, state, embedded bundle or \
            --context values cannot be used; 64 for a value an option does not take. Without \
            --once it polls until interrupted (exit 0).
            """
    )

    @Option(
        name: .long, help: ArgumentHelp("The channel pointer's URL: …/channels/NAME.json.", valueName: "url"),
        transform: ChannelURLArgument.init(parsing:))
    var channel: ChannelURLArgument

    @Option(
        name: .long, parsing: .upToNextOption,
        help: ArgumentHelp("Public key files the device trusts (repeatable).", valueName: "file"))
    var pubkey: [String]

    @Option(name: .long, help: ArgumentHelp("The device's state folder (created if missing).", valueName: "dir"))
    var state: String

    @Option(
        name: .long, help: ArgumentHelp("The app's embedded bundle: a .jbundle or a bundle folder.", valueName: "path"))
    var embedded: String?

    @Option(
        name: .customLong("install-id"),
        help: ArgumentHelp("The device's install id for rollouts (default: one kept in --state).", valueName: "id"),
        transform: InstallIDArgument.init(parsing:))
    var installID: InstallIDArgument?

    @Option(
        name: .customLong("host-version"),
        help: ArgumentHelp("The app version the device plays (default 999.0.0).", valueName: "version"),
        transform: HostVersionArgument.init(parsing:))
    var hostVersion = HostVersionArgument(SemanticVersion(999, 0, 0))

    @Flag(name: .long, help: "Poll once and exit: 0 activated or unchanged, 1 refused, 3 unreachable.")
    var once = false

    @Option(
        name: .long, help: ArgumentHelp("Seconds between polls (default 60, at least 0.1).", valueName: "seconds"),
        transform: SecondsArgument.init(parsing:))
    var interval = SecondsArgument(seconds: 60)

    @Option(
        name: .long, help: ArgumentHelp("Seconds one poll's downloads may take (default 30).", valueName: "seconds"),
        transform: SecondsArgument.init(parsing:))
    var deadline = SecondsArgument(seconds: 30)

    @Option(name: .long, help: ArgumentHelp("A URL to decide after each poll (repeatable).", valueName: "url"))
    var decide: [String] = []

    @Option(
        name: .long,
        help: ArgumentHelp(
            "A context value the --decide URLs are decided with: key=value; dots nest (user.id=42).",
            valueName: "key=value"))
    var context: [String] = []

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Upload the decision log to this collector (junction logs serve, or any that takes gzip NDJSON POSTs).",
            valueName: "url"),
        transform: CollectorURLArgument.init(parsing:))
    var logs: CollectorURLArgument?

    @Option(
        name: .customLong("log-token-file"),
        help: ArgumentHelp("A file holding the collector's bearer token.", valueName: "file"))
    var logTokenFile: String?

    @Flag(name: .long, help: "Print one JSON object per line.")
    var json = false

    @Flag(name: .long, help: "Log what the updater and the store do on standard error (by default only errors).")
    var verbose = false

    func validate() throws {
        guard deadline.duration > .zero else { throw ValidationError("--deadline must be more than 0 seconds") }
        if logTokenFile != nil, logs == nil { throw ValidationError("--log-token-file needs --logs") }
    }

    func run() async throws {
        let setup: AgentSetup
        do { setup = try AgentSetup(self) } catch { throw error.report("agent") }
        let output = AgentOutput(json: json, decide: decide, context: setup.context, log: setup.log)
        let updater: BundleUpdater
        do {
            updater = try BundleUpdater.launch(
                channel: setup.channel, acceptance: UpdateAcceptance(policy: setup.policy), store: setup.store,
                embedded: setup.embedded, configuration: setup.configuration, transport: setup.transport,
                logger: setup.logger)
        } catch {
            printError("agent: \(error)")
            throw ExitCode(2)
        }
        do { _ = try output.context(under: updater.policy) } catch {
            printError("agent: error: \(error.message)")
            throw ExitCode(2)
        }
        output.launched(await updater.installer.status(), policy: updater.policy)
        await output.upload()
        if once {
            let poll = await updater.checkNow()
            output.poll(poll, policy: updater.policy)
            await output.upload()
            switch poll.outcome {
            case .activated, .unchanged: return
            case .refused: throw ExitCode(1)
            case .unreachable: throw ExitCode(3)
            }
        }
        let signals = AgentSignals.exitOnInterrupt()
        await updater.start()
        for await poll in updater.polls {
            output.poll(poll, policy: updater.policy)
            await output.upload()
        }
        withExtendedLifetime(signals) {}
    }
}
