public import Foundation
import JunctionArtifact
public import Logging
import JunctionCore
public import Junction

/// Keeps the device's bundle current from a channel on a static host — a CDN, nginx, or a
/// `file://` folder: polls the channel pointer with `If-None-Match`, takes what changed
/// through the acceptance pipeline, and activates it without a release.
///
/// One poll:
///
/// 1. `GET` the pointer (at most ``ChannelPointer/maximumBytes``), sending the ETag
///    remembered with the pointer the device holds. `304`: ``UpdatePollOutcome/unchanged(_:_:)``
///    — nothing downloaded, verified or activated.
/// 2. A new pointer goes to the ``BundleInstaller``: its checks (signature, channel, seq
///    ratchet, remembered failures, dates, rollout), then — only if they pass — `GET` the
///    content-addressed object it names, at most the length it announces; then length, hash,
///    signature, the bundle's tests and the app's invariants; then persist and activate.
/// 3. The ETag of a pointer the device took is persisted with it, so a restart costs a `304`.
///
/// One deadline bounds both exchanges of a poll. A host that cannot be reached, answers with
/// another status, or runs past the deadline makes the poll
/// ``UpdatePollOutcome/unreachable(_:nextAttempt:)``: the next attempt follows exponential
/// backoff with full jitter (capped at the interval) or the server's `Retry-After`,
/// whichever is later; the first success returns to the interval. A refused update leaves
/// the active bundle deciding and nothing persisted changes but the refusals the installer
/// remembers (a bundle whose tests fail is not fetched again).
///
/// ```swift
/// let updater = try BundleUpdater.launch(
///     channel: URL(string: "https://cdn.example.com/junction/channels/stable.json")!,
///     acceptance: UpdateAcceptance(policy: policy), store: BundleStore(directory: dir), embedded: embeddedBytes)
/// let router = Router(policy: updater.policy)
/// await updater.start()                       // polls every 15 minutes, from now
/// for await poll in updater.polls { telemetry.record(poll.outcome.name) }
/// ```
public actor BundleUpdater {
    /// The installer that launched the device's bundle and installs what the channel announces.
    public nonisolated let installer: BundleInstaller
    /// Where the channel's pointer and objects are.
    public nonisolated let channel: ChannelLocation
    /// Every poll, in order: what it came to and the status after it. The newest
    /// ``BundleInstaller/eventBuffer`` are kept for a slow reader. One reader.
    public nonisolated let polls: AsyncStream<UpdatePoll>
    /// How the updater polls.
    public nonisolated let configuration: UpdaterConfiguration

    /// The policy the app decides under; a ``Router`` built on it follows every activation.
    public nonisolated var policy: ActivePolicy { installer.policy }

    private let continuation: AsyncStream<UpdatePoll>.Continuation
    private let transport: any UpdateTransport
    private let store: BundleStore
    private let logger: Logger
    private let clock = ContinuousClock()
    private let wallClock: @Sendable () -> Date
    private var channelTag: StoredChannelTag?
    private var failuresInARow = 0
    private var nextPoll: ContinuousClock.Instant
    private var inFlight: Task<UpdatePoll, Never>?
    private var loop: Task<Void, Never>?

    /// Launches the device's bundle (see ``BundleInstaller/launch(acceptance:store:embedded:whenStale:at:logger:)``:
    /// the persisted update, verified again, else the last-known-good, else `embedded`) and
    /// makes an updater for it. Nothing is fetched until ``start()``, ``run()`` or ``checkNow()``.
    /// - Parameters:
    ///   - channel: The channel pointer's URL: `…/channels/<name>.json` over https, http or file.
    ///   - acceptance: The checks updates are held to.
    ///   - store: Where accepted updates and the channel's ETag are persisted.
    ///   - embedded: The artifact shipped inside the app, as `Data` or bytes.
    ///   - whenStale: What decides once the update in force is past its expiry.
    ///   - configuration: How to poll.
    ///   - transport: How to reach the host: by default ``FileTransport`` for a `file://`
    ///     channel, else the platform's HTTP transport (``HTTPTransport``).
    ///   - wallClock: The time, read at the launch and as each poll starts: what pointers'
    ///     and artifacts' dates are judged by.
    ///   - logger: Where polls are logged (label `junction.update`).
    /// - Returns: The updater; its ``policy`` decides from now on.
    /// - Throws: ``BundleUpdaterError`` for a channel URL the updater cannot use, or when the
    ///   embedded artifact is refused (a build mistake in the app).
    public static func launch(
        channel: URL, acceptance: UpdateAcceptance, store: BundleStore, embedded: some Collection<UInt8>,
        whenStale: StaleBundlePolicy = .keepDeciding, configuration: UpdaterConfiguration = UpdaterConfiguration(),
        transport: (any UpdateTransport)? = nil, wallClock: @escaping @Sendable () -> Date = { Date() },
        logger: Logger = Logger(label: "junction.update")
    ) throws(BundleUpdaterError) -> BundleUpdater {
        let location: ChannelLocation
        do { location = try ChannelLocation(channel) } catch { throw .channel(error) }
        let installer: BundleInstaller
        do {
            installer = try BundleInstaller.launch(
                acceptance: acceptance, store: store, embedded: embedded, whenStale: whenStale, at: wallClock(),
                logger: logger)
        } catch { throw .embeddedRefused(error) }
        return BundleUpdater(
            installer: installer, channel: location, store: store, configuration: configuration,
            transport: transport ?? (channel.isFileURL ? FileTransport() : HTTPTransport.make()),
            wallClock: wallClock, logger: logger)
    }

    private init(
        installer: BundleInstaller, channel: ChannelLocation, store: BundleStore, configuration: UpdaterConfiguration,
        transport: any UpdateTransport, wallClock: @escaping @Sendable () -> Date, logger: Logger
    ) {
        self.wallClock = wallClock
        self.installer = installer
        self.channel = channel
        self.store = store
        self.configuration = configuration
        self.transport = transport
        self.logger = logger
        channelTag = store.load().channelTag
        nextPoll = clock.now
        (polls, continuation) = AsyncStream.makeStream(
            of: UpdatePoll.self, bufferingPolicy: .bufferingNewest(BundleInstaller.eventBuffer))
    }

    deinit {
        loop?.cancel()
        inFlight?.cancel()
        continuation.finish()
    }

    // MARK: - Scheduling

    /// Starts polling in a task the updater owns: at once, then every interval, or sooner
    /// after a failure. Calling it again while it polls does nothing; ``stop()`` ends it.
    public func start() {
        guard loop == nil else { return }
        loop = Task { await self.run() }
    }

    /// Stops the polling ``start()`` began, and cancels a poll in flight (it changes nothing).
    public func stop() {
        loop?.cancel()
        loop = nil
        inFlight?.cancel()
    }

    /// Polls until the calling task is cancelled: the first poll at once, each next one at
    /// ``nextAttempt``.
    public func run() async {
        while !Task.isCancelled {
            let wait = nextPoll - clock.now
            if wait > .zero {
                do { try await Task.sleep(for: wait) } catch { return }
                // ``checkNow()`` may have polled meanwhile and moved the next poll on.
                continue
            }
            _ = await checkNow()
        }
    }

    /// Polls now, whatever the backoff: for an app that learns the network is back, or
    /// comes to the foreground. A poll already in flight is awaited instead of doubled.
    /// - Returns: The poll, also sent on ``polls``.
    @discardableResult
    public func checkNow() async -> UpdatePoll {
        let task: Task<UpdatePoll, Never>
        if let inFlight {
            task = inFlight
        } else {
            task = Task { await self.pollOnce() }
            inFlight = task
        }
        let poll = await withTaskCancellationHandler {
            await task.value
        } onCancel: {
            task.cancel()
        }
        if inFlight == task { inFlight = nil }
        return poll
    }

    /// When the next scheduled poll is due.
    public var nextAttempt: ContinuousClock.Instant { nextPoll }

    // MARK: - One poll

    private func pollOnce() async -> UpdatePoll {
        let started = wallClock()
        let deadline = clock.now + configuration.attemptDeadline
        let outcome = await exchange(started: started, deadline: deadline)
        let status = await installer.status(at: wallClock())
        let poll = UpdatePoll(started: started, outcome: outcome, status: status)
        log(poll)
        continuation.yield(poll)
        return poll
    }

    private func exchange(started: Date, deadline: ContinuousClock.Instant) async -> UpdatePollOutcome {
        let held = await installer.heldPointerSHA256
        let validator = channelTag.flatMap { $0.pointerSHA256 == held ? $0.etag : nil }
        let response: TransportResponse
        do {
            response = try await transport.send(
                TransportRequest(
                    url: channel.pointer, ifNoneMatch: validator, maximumBytes: ChannelPointer.maximumBytes,
                    deadline: deadline))
        } catch {
            return unreachable(error, retryAfter: nil)
        }
        switch response.status {
        case 200:
            break
        case 304 where validator != nil:
            scheduleAfterSuccess()
            return .unchanged(await installer.heldIdentity, .notModified)
        default:
            return unreachable(Self.statusError(response.status, for: channel.pointer), retryAfter: response.retryAfter)
        }
        let pointer = response.body
        let fetchFailure = FetchFailure()
        let event = await installer.install(pointer: pointer, at: started) { [transport, channel] verified in
            let url = channel.object(verified.pointer.artifactSHA256)
            let object: TransportResponse
            do throws(UpdateTransportError) {
                object = try await transport.send(
                    TransportRequest(url: url, maximumBytes: verified.pointer.artifactLength, deadline: deadline))
            } catch {
                fetchFailure.record(error, retryAfter: nil)
                throw error
            }
            guard object.status == 200 else {
                let error = Self.statusError(object.status, for: url)
                fetchFailure.record(error, retryAfter: object.retryAfter)
                throw error
            }
            // At most one byte past the announced length: acceptance refuses any other length.
            return object.body
        }
        switch event {
        case .installed(let identity):
            await remember(response.etag, for: pointer)
            scheduleAfterSuccess()
            return .activated(identity, .update)
        case .pinnedEmbedded(let identity):
            await remember(response.etag, for: pointer)
            scheduleAfterSuccess()
            return .activated(identity, .embedded)
        case .unchanged(let identity):
            await remember(response.etag, for: pointer)
            scheduleAfterSuccess()
            return .unchanged(identity, .sameUpdate)
        case .notInRollout(let identity, let percent):
            scheduleAfterSuccess()
            return .unchanged(identity, .notInRollout(percent: percent))
        case .failed(.fetchFailed(let identity, let description)):
            let (error, retryAfter) =
                fetchFailure.recorded ?? (UpdateTransportError(.badResponse, "\(identity): \(description)"), nil)
            return unreachable(error, retryAfter: retryAfter)
        case .failed(let failure):
            scheduleAfterSuccess()
            return .refused(failure)
        case .launched, .skipped, .setAsideStale, .pinIgnored:
            preconditionFailure("install reports installed, unchanged, pinnedEmbedded or failed; it reported \(event)")
        }
    }

    /// Remembers the ETag the host sent with `pointer` when the device now holds that very
    /// pointer; a tag that cannot be persisted is still used until the app restarts.
    private func remember(_ etag: String?, for pointer: [UInt8]) async {
        guard let etag, StoredChannelTag.isStorable(etag) else { return }
        let digest = SHA256Text.of(pointer)
        guard await installer.heldPointerSHA256 == digest else { return }
        let tag = StoredChannelTag(etag: etag, pointerSHA256: digest)
        guard tag != channelTag else { return }
        channelTag = tag
        do { try store.rememberChannelTag(tag) } catch {
            logger.warning(
                "the channel's ETag could not be persisted (\(error)); after a restart the pointer is downloaded again")
        }
    }

    // MARK: - Backoff

    private func scheduleAfterSuccess() {
        failuresInARow = 0
        let spread = configuration.intervalSpread
        // The system generator, drawn without a stored generator: a zero-sized value passed
        // `inout` shares one address across actors, which the thread sanitizer reports as a race.
        let factor = spread > 0 ? Double.random(in: (1 - spread)...(1 + spread)) : 1
        nextPoll = clock.now + configuration.interval * factor
    }

    private func unreachable(_ error: UpdateTransportError, retryAfter: Duration?) -> UpdatePollOutcome {
        var wait = Duration.zero
        // A poll that was cancelled is no failure; a transport that says `cancelled` on its
        // own is, or the loop would poll again at once, and again.
        if !(error.code == .cancelled && Task.isCancelled) {
            failuresInARow += 1
            let backoff = RetrySchedule(
                base: min(configuration.backoff.base, configuration.interval),
                cap: min(configuration.backoff.cap, configuration.interval))
            wait = backoff.delay(afterFailures: failuresInARow)
            if let retryAfter { wait = max(wait, min(retryAfter, configuration.maximumRetryAfter)) }
        }
        nextPoll = clock.now + wait
        return .unreachable(error, nextAttempt: wallClock().addingTimeInterval(Self.seconds(wait)))
    }

    private static func statusError(_ status: Int, for url: URL) -> UpdateTransportError {
        let hint =
            switch status {
            case 404: "; is the channel published there?"
            case 429, 503: "; the host is shedding load"
            default: ""
            }
        return UpdateTransportError(.status, "GET \(url.absoluteString) answered \(status)\(hint)", status: status)
    }

    private static func seconds(_ duration: Duration) -> TimeInterval {
        let (seconds, attoseconds) = duration.components
        return TimeInterval(seconds) + TimeInterval(attoseconds) / 1e18
    }

    private func log(_ poll: UpdatePoll) {
        switch poll.outcome {
        case .unchanged: logger.debug("\(poll)")
        case .activated: logger.info("\(poll)")
        case .refused, .unreachable: logger.warning("\(poll)")
        }
    }
}

/// What the object fetch threw, kept typed for the poll's outcome (the installer reports
/// only its description).
private final class FetchFailure: Sendable {
    private let value = Locked<(UpdateTransportError, Duration?)?>(nil)

    func record(_ error: UpdateTransportError, retryAfter: Duration?) { value.withLock { $0 = (error, retryAfter) } }

    var recorded: (UpdateTransportError, Duration?)? { value.withLock { $0 } }
}
