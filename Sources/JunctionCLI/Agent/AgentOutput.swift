import Foundation
import Junction
import JunctionShipping

/// What `junction agent` prints: the launch, each poll, and the decisions after it — as
/// lines a person follows, or with `--json` one object per line.
struct AgentOutput {
    /// Whether each line is a JSON object.
    var json: Bool
    /// The URLs decided after each poll.
    var decide: [String]
    /// The `--context` values, typed by the schema of the bundle active when they are used.
    var context: ContextArguments
    /// The decision log each decision is recorded in, with `--logs`.
    var log: AgentLog?

    /// The context the `--decide` URLs are decided in under `policy`: the values typed by
    /// its bundle's `context:` schema, as `eval` and `diff` type them.
    /// - Throws: The first value the schema does not take, with its option, key and type.
    func context(under policy: ActivePolicy) throws(KeyValueArguments.ParseError) -> ContextSnapshot {
        ContextSnapshot(try context.values(schema: policy.current.bundle?.manifest.context))
    }

    func launched(_ status: UpdateStatus, policy: ActivePolicy) {
        log?.launched(status)
        if json {
            var object = JSONWriter()
            object.add("event", .string("launched"))
            Self.add(status, to: &object)
            emit(object.rendered)
        } else {
            emit("launched \(status)")
        }
        decisions(policy)
    }

    func poll(_ poll: UpdatePoll, policy: ActivePolicy) {
        log?.polled(poll)
        if json {
            var object = JSONWriter()
            object.add("event", .string(poll.outcome.name))
            switch poll.outcome {
            case .activated(let identity, let origin):
                Self.add(identity, to: &object)
                object.add("origin", .string(origin.rawValue))
            case .unchanged(let identity, let reason):
                if let identity { Self.add(identity, to: &object) }
                object.add("reason", .string(reason.description))
            case .refused(let failure):
                switch failure {
                case .refused(let refusal):
                    if let identity = refusal.identity { Self.add(identity, to: &object) }
                    object.add("code", .string(refusal.code.description))
                    object.add("reason", .string(refusal.description))
                case .fetchFailed(let identity, _), .notPersisted(let identity, _):
                    Self.add(identity, to: &object)
                    object.add("code", .string(Self.code(failure)))
                    object.add("reason", .string(failure.description))
                }
            case .unreachable(let error, let next):
                object.add("code", .string(error.code.rawValue))
                object.add("http_status", error.status.map { .raw(String($0)) } ?? .null)
                object.add("reason", .string(error.description))
                object.add("next_attempt", .string(next.formatted(.iso8601)))
            }
            object.add("status", .string(Self.condition(poll.status.condition)))
            var active = JSONWriter()
            Self.add(poll.status, to: &active)
            object.add("active", .raw(active.rendered))
            emit(object.rendered)
        } else {
            let status = poll.status
            let pin = status.pinnedBy.map { ", pinned by \($0)" } ?? ""
            emit(
                "\(poll.outcome)\n  now: \(status.active) from \(status.origin)\(pin): \(Self.condition(status.condition))"
            )
        }
        decisions(policy)
    }

    private func decisions(_ policy: ActivePolicy) {
        guard !decide.isEmpty else { return }
        let context: ContextSnapshot
        do { context = try self.context(under: policy) } catch {
            // An update whose schema does not take the values: nothing is decided in a
            // context the command line did not mean.
            for url in decide {
                if json {
                    var object = JSONWriter()
                    object.add("event", .string("decision"))
                    object.add("url", .string(url))
                    object.add("error", .string(error.message))
                    emit(object.rendered)
                } else {
                    emit("  \(url) → not decided: \(error.message)")
                }
            }
            return
        }
        let logPolicy = policy.current.bundle?.manifest.log ?? .default
        for url in decide {
            let decision = policy.decide(RouteRequest(url), context: context)
            log?.record(decision, context: context, policy: logPolicy)
            if json {
                var object = JSONWriter()
                object.add("event", .string("decision"))
                object.add("url", .string(url))
                object.add("decision", .raw(DecisionRendering.json(decision, timing: false)))
                emit(object.rendered)
            } else {
                emit("  \(url) → \(decision.summary)")
            }
        }
    }

    /// A pass of the decision log's uploader, with `--logs`, printed as an `uploaded` event:
    /// the batches and lines sent, the lines given up, the batches kept, the failure.
    func upload() async {
        guard let log else { return }
        let pass = await log.upload()
        if json {
            var object = JSONWriter()
            object.add("event", .string("uploaded"))
            object.add("batches", .raw(String(pass.sentBatches)))
            object.add("lines", .raw(String(pass.sentLines)))
            object.add("dropped", .raw(String(pass.droppedLines)))
            object.add("kept", .raw(String(pass.keptBatches)))
            if let failure = pass.failure { object.add("reason", .string(failure.description)) }
            emit(object.rendered)
        } else {
            let failure = pass.failure.map { "; kept \(pass.keptBatches) for later: \($0)" } ?? ""
            emit(
                "  log: sent \(pass.sentLines) lines in \(pass.sentBatches) batches, \(pass.droppedLines) given up\(failure)"
            )
        }
    }

    /// Written straight to the descriptor, unbuffered: a reader on a pipe sees each line
    /// when it happens, and an interrupt loses nothing.
    private func emit(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }

    private static func add(_ identity: UpdateIdentity, to object: inout JSONWriter) {
        // Only above 0, so lines of an epoch-0 channel read as they always did.
        if identity.epoch > 0 { object.add("epoch", .raw(String(identity.epoch))) }
        object.add("seq", .raw(String(identity.seq)))
        object.add("sha256", .string(identity.artifactSHA256))
    }

    private static func add(_ status: UpdateStatus, to object: inout JSONWriter) {
        add(status.active, to: &object)
        object.add("origin", .string(status.origin.rawValue))
        object.add("status", .string(condition(status.condition)))
        object.add("expires", .string(status.expires.formatted(.iso8601)))
        object.add("pinned_by", status.pinnedBy.map { .raw(String($0.seq)) } ?? .null)
    }

    private static func condition(_ condition: UpdateCondition) -> String {
        switch condition {
        case .ok: "ok"
        case .stale: "stale"
        case .failed: "failed"
        }
    }

    private static func code(_ failure: UpdateFailure) -> String {
        switch failure {
        case .refused(let refusal): refusal.code.description
        case .fetchFailed: "fetchFailed"
        case .notPersisted: "notPersisted"
        }
    }
}
