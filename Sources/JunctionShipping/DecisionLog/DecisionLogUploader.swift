public import Foundation

/// Sends the decision log to a collector: gzip NDJSON batches POSTed through the updater's
/// transports, with their byte and deadline bounds, off the main actor.
///
/// It holds two buffers, ``decisions`` and ``status`` (a flood of decisions never pushes a
/// status report out), and sends them in batches of at most
/// ``DecisionLogUploaderConfiguration/maximumBatchBytes``, oldest first. Each batch that
/// follows drops reports them in a last line, `{"kind":"dropped","lines":N,…}`, so a report
/// knows what it did not see. A collector's answer decides what happens to a batch:
///
/// | answer | the batch |
/// | --- | --- |
/// | `2xx` | sent |
/// | `413` | sent again in smaller batches (halved, down to one line, which is then dropped); later batches stay that small |
/// | `408`, `429`, `3xx`, `401`, `403`, `404`, `5xx`, no answer | kept; the pass stops; the next waits by the backoff or `Retry-After` |
/// | any other `4xx` | dropped, and counted |
///
/// A kept batch goes to the ``PendingLogBatches`` folder when there is one — so a restart
/// sends it — and back into its buffer otherwise. Every line lost on the way is counted
/// into the next batch: the buffer's own drops, the folder's, and the collector's refusals.
///
/// ```swift
/// let uploader = DecisionLogUploader(
///     configuration: try DecisionLogUploaderConfiguration(collector: URL(string: "https://logs.example.com")!),
///     pending: PendingLogBatches(directory: supportDirectory + "/junction-logs"))
/// router.decisionObserver = { [unowned router] decision in
///     uploader.decisions.record(decision, context: router.context, policy: logPolicy, appVersion: "6.1.0")
/// }
/// Task.detached { await uploader.run() }
/// ```
public actor DecisionLogUploader {
    /// Where and how it sends.
    public nonisolated let configuration: DecisionLogUploaderConfiguration
    /// The decision lines waiting to be sent.
    public nonisolated let decisions: DecisionLog
    /// The status lines waiting to be sent.
    public nonisolated let status: DecisionLog
    /// The most POSTs one pass makes; what is left waits for the next.
    public static let maximumPostsPerPass = 64

    private let transport: any UpdateTransport
    private let pending: PendingLogBatches?
    private let now: @Sendable () -> Date
    /// The pending folder's batches, oldest first; `nil` until it is first read.
    private var pendingBatches: [PendingLogBatches.Batch]?
    private var nextSequence = 0
    /// The batch size in force, in bytes and lines: halved after a `413`, never below one
    /// line's bound and one line.
    private var batchBytes: Int
    private var batchLines = Int.max
    private var failuresInARow = 0
    private var isEnabled = true
    private var passUnderWay: Task<DecisionLogUploadPass, Never>?
    /// The pending folder could not be listed: batches are kept in the buffers instead.
    private var pendingUnusable = false

    /// An uploader.
    /// - Parameters:
    ///   - configuration: Where and how it sends.
    ///   - decisions: The buffer of decision lines (2,000 lines, 1 MiB by default).
    ///   - status: The buffer of status lines (200 lines, 128 KiB by default).
    ///   - transport: How it posts; the platform's HTTP transport by default.
    ///   - pending: Where batches that could not be sent wait across restarts, if anywhere.
    ///   - now: The clock the drop reports are stamped with.
    public init(
        configuration: DecisionLogUploaderConfiguration, decisions: DecisionLog = DecisionLog(),
        status: DecisionLog = DecisionLog(limits: DecisionLog.Limits(maximumLines: 200, maximumBytes: 128 * 1024)),
        transport: any UpdateTransport = HTTPTransport.make(), pending: PendingLogBatches? = nil,
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.configuration = configuration
        self.decisions = decisions
        self.status = status
        self.transport = transport
        self.pending = pending
        self.now = now
        self.batchBytes = configuration.maximumBatchBytes
    }

    /// The buffer of `kind`.
    public nonisolated func log(_ kind: DecisionLogKind) -> DecisionLog {
        switch kind {
        case .decisions: decisions
        case .status: status
        }
    }

    /// Sends until both buffers and the pending folder are empty, the collector fails, or
    /// ``maximumPostsPerPass`` POSTs were made: the pending folder's batches first (they are
    /// the oldest), then the status lines, then the decisions.
    /// - Returns: What it did.
    /// A pass under way waits while it posts; a second `flush` (the app's, during
    /// ``run()``'s) waits for it and gets its result rather than sending the same batches twice.
    @discardableResult
    public func flush() async -> DecisionLogUploadPass {
        if let passUnderWay { return await passUnderWay.value }
        // The task runs on this actor, after this function suspends: it is registered
        // before it starts, and unregisters itself before anyone can read its value.
        let pass = Task {
            let result = await onePass()
            passUnderWay = nil
            return result
        }
        passUnderWay = pass
        return await pass.value
    }

    private func onePass() async -> DecisionLogUploadPass {
        var pass = DecisionLogUploadPass()
        guard isEnabled else { return pass }
        var posts = 0
        guard await sendPending(&pass, posts: &posts) else { return finished(pass) }
        for kind in [DecisionLogKind.status, .decisions] {
            let log = log(kind)
            while posts < Self.maximumPostsPerPass {
                let batch = log.take(maximumBytes: batchBytes, maximumLines: batchLines)
                if batch.isEmpty { break }
                posts += 1
                guard await send(batch, kind: kind, into: &pass) else { return finished(pass) }
            }
        }
        return finished(pass)
    }

    /// Moves what the buffers hold into the pending folder, so it outlives the process (when
    /// the app goes to the background). A pass under way finishes first, so the batch it
    /// is posting is sent or kept in its place, never lost between the two. Without a
    /// folder, it does nothing.
    /// - Returns: The batches saved.
    @discardableResult
    public func persist() async -> Int {
        while let passUnderWay { _ = await passUnderWay.value }
        guard pending != nil, isEnabled else { return 0 }
        var ignored = DecisionLogUploadPass()
        loadPending(into: &ignored)
        var saved = 0
        for kind in DecisionLogKind.allCases {
            let log = log(kind)
            while true {
                let batch = log.take(maximumBytes: batchBytes, maximumLines: batchLines)
                if batch.isEmpty { break }
                // Drops alone are saved only where they fit: making room for them would
                // drop a batch of lines. Else their count waits in the buffer.
                if batch.lines.isEmpty, !(pending?.fits(bytes: 128, after: pendingBatches ?? []) ?? false) {
                    log.putBack(batch)
                    break
                }
                guard keep(batch, kind: kind) else { return saved }
                saved += 1
                if batch.lines.isEmpty { break }
            }
        }
        return saved
    }

    /// Uploads until the task is cancelled: a pass, then a wait — the interval while the
    /// collector takes the batches (cut short when a buffer is half full), or after a
    /// failure the backoff's jittered wait or the collector's `Retry-After`, whichever is longer.
    public func run() async {
        while !Task.isCancelled {
            let pass = await flush()
            if pass.failure != nil {
                let backoff = configuration.backoff.delay(afterFailures: failuresInARow)
                let asked = min(pass.retryAfter ?? .zero, configuration.maximumRetryAfter)
                try? await Task.sleep(for: max(backoff, asked))
            } else {
                await waitForWork(upTo: configuration.interval)
            }
        }
    }

    /// The kill switch: switched off, it sends nothing, the buffers empty themselves and
    /// record nothing, and the pending folder's batches are removed unsent; switched on, it
    /// starts afresh.
    /// - Parameter enabled: Whether the log is on.
    public func setEnabled(_ enabled: Bool) {
        isEnabled = enabled
        decisions.isEnabled = enabled
        status.isEnabled = enabled
        guard !enabled, let pending else { return }
        // A pass under way sees the switch after its POST and keeps nothing.
        for batch in (try? pending.list().kept) ?? [] { pending.remove(batch) }
        pendingBatches = nil
    }

    // MARK: - Sending

    /// What a collector's answer means for a batch.
    private enum Answer {
        case sent
        case tooLarge
        case refused(Int)
        case failed(UpdateTransportError, retryAfter: Duration?)
    }

    private func finished(_ pass: DecisionLogUploadPass) -> DecisionLogUploadPass {
        failuresInARow = pass.failure == nil ? 0 : failuresInARow + 1
        return pass
    }

    /// Sends the pending folder's batches, oldest first. Returns whether the pass goes on.
    private func sendPending(_ pass: inout DecisionLogUploadPass, posts: inout Int) async -> Bool {
        guard let pending else { return true }
        loadPending(into: &pass)
        while let batch = pendingBatches?.first, posts < Self.maximumPostsPerPass {
            posts += 1
            let body: [UInt8]
            do { body = try pending.read(batch) } catch {
                pendingBatches?.removeAll { $0 == batch }
                pending.remove(batch)
                dropped([batch], into: &pass)
                continue
            }
            let answer = await post(body, kind: batch.kind)
            // Switched off while it posted: the folder is gone; nothing more is sent or kept.
            guard isEnabled else { return false }
            switch answer {
            case .sent:
                pass.sentBatches += 1
                pass.sentLines += batch.lines
            case .tooLarge, .refused:
                // Sent as it was saved: it cannot be split now; it is given up and counted.
                dropped([batch], into: &pass)
            case .failed(let error, let retryAfter):
                pass.failure = error
                pass.retryAfter = retryAfter
                return false
            }
            pendingBatches?.removeAll { $0 == batch }
            pending.remove(batch)
        }
        return posts < Self.maximumPostsPerPass
    }

    /// Reads the pending folder's list once, making the folder if it is missing.
    private func loadPending(into pass: inout DecisionLogUploadPass) {
        guard let pending, pendingBatches == nil, !pendingUnusable else { return }
        do {
            let (kept, removed) = try pending.list()
            pendingBatches = kept
            nextSequence = (kept.last?.sequence ?? -1) + 1
            dropped(removed, into: &pass)
        } catch {
            // A folder that cannot be listed (damaged, or holding far more than its bound)
            // is not used: kept batches stay in the buffers.
            pendingUnusable = true
        }
    }

    /// Sends one batch taken from a buffer. Returns whether the pass goes on.
    private func send(_ batch: DecisionLogBatch, kind: DecisionLogKind, into pass: inout DecisionLogUploadPass) async
        -> Bool
    {
        let answer = await post(body(of: batch), kind: kind)
        // Switched off while it posted: the batch is not kept.
        guard isEnabled else { return false }
        switch answer {
        case .sent:
            pass.sentBatches += 1
            pass.sentLines += batch.lines.count
        case .tooLarge where batch.lines.count > 1:
            // Smaller batches from now on: at most half this one's lines and bytes. It goes
            // back in front, to be taken again in pieces.
            batchLines = max(1, batch.lines.count / 2)
            batchBytes = max(DecisionLogLine.maximumBytes, batch.lines.reduce(0) { $0 + $1.utf8.count } / 2)
            log(kind).putBack(batch)
        case .tooLarge, .refused:
            log(kind).countDropped(batch.lines.count + batch.dropped)
            pass.droppedLines += batch.lines.count
        case .failed(let error, let retryAfter):
            pass.failure = error
            pass.retryAfter = retryAfter
            keep(batch, kind: kind)
            pass.keptBatches += 1
            return false
        }
        return true
    }

    /// Keeps a batch that could not be sent: in the pending folder, else back in its buffer
    /// (which drops and counts what no longer fits). Batches the folder removes to make room
    /// are counted in this batch's own drop line, so their count is as durable as the batch.
    /// Returns whether it went to the folder.
    @discardableResult
    private func keep(_ batch: DecisionLogBatch, kind: DecisionLogKind) -> Bool {
        guard isEnabled else { return false }
        guard let pending, !pendingUnusable else {
            log(kind).putBack(batch)
            return false
        }
        let existing = pendingBatches ?? []
        var counted = batch
        // The body grows by its drop line: a margin for it.
        let evicted = pending.removals(adding: body(of: batch).count + 128, after: existing)
        counted.dropped += evicted.reduce(0) { $0 + $1.lines }
        do {
            let (kept, removed) = try pending.save(
                body(of: counted), kind: kind, lines: counted.lines.count + counted.dropped, sequence: nextSequence,
                existing: existing)
            nextSequence += 1
            pendingBatches = kept
            // Removed beyond what was foreseen: counted in memory.
            let foreseen = Set(evicted)
            var ignored = DecisionLogUploadPass()
            dropped(removed.filter { !foreseen.contains($0) }, into: &ignored)
            return true
        } catch {
            log(kind).putBack(batch)
            return false
        }
    }

    /// Counts batches removed unsent as dropped, in their kind's next batch.
    private func dropped(_ batches: [PendingLogBatches.Batch], into pass: inout DecisionLogUploadPass) {
        for batch in batches {
            log(batch.kind).countDropped(batch.lines)
            pass.droppedLines += batch.lines
        }
    }

    /// The body of a batch: its lines, then a line reporting its drops, gzipped.
    private func body(of batch: DecisionLogBatch) -> [UInt8] {
        var text = ""
        for line in batch.lines {
            text += line
            text += "\n"
        }
        if batch.dropped > 0 {
            text += #"{"kind":"dropped","lines":\#(batch.dropped),"time":"\#(RFC3339.format(now()))"}"# + "\n"
        }
        return GzipCompression.member(Array(text.utf8))
    }

    private func post(_ body: [UInt8], kind: DecisionLogKind) async -> Answer {
        let request = TransportRequest(
            url: configuration.url(for: kind), maximumBytes: 0,
            deadline: .now + configuration.exchangeTimeout,
            upload: TransportUpload(
                body: body, contentType: "application/x-ndjson", contentEncoding: "gzip",
                bearerToken: configuration.bearerToken))
        let response: TransportResponse
        do { response = try await transport.send(request) } catch { return .failed(error, retryAfter: nil) }
        switch response.status {
        case 200..<300: return .sent
        case 413: return .tooLarge
        case 300..<400, 401, 403, 404, 408, 429, 500...:
            let error = UpdateTransportError(
                .status, "POST \(request.url.absoluteString.prefix(200)) answered \(response.status)",
                status: response.status)
            return .failed(error, retryAfter: response.retryAfter)
        default: return .refused(response.status)
        }
    }

    /// Sleeps up to `interval`, waking early when a buffer is half full.
    private func waitForWork(upTo interval: Duration) async {
        let end = ContinuousClock.now + interval
        while !Task.isCancelled, ContinuousClock.now < end {
            let slice = min(.seconds(1), end - .now)
            try? await Task.sleep(for: slice)
            if [decisions, status].contains(where: { $0.isHalfFull }) { return }
        }
    }
}
