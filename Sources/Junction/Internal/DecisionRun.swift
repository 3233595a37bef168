import JunctionCore
import JunctionLua

/// The state of one ``Decider/decide(_:context:)``: the URLs visited, the parameters
/// carried, the trace so far.
struct DecisionRun {
    private let decider: Decider
    private let context: ContextSnapshot
    /// The request now: the current URL's parameters include redirect verdicts' params.
    /// It is the caller's own until a redirect verdict carries parameters, so the run
    /// holds one request, not a second copy of the caller's.
    private var request: RouteRequest
    /// The caller's parameters, kept when a redirect verdict changes `request`'s.
    private var callerParams: [String: RuleValue]?
    private var rewrites: [String: RuleValue] = [:]
    /// The URLs left behind by redirects, in order (empty for most requests, so nothing
    /// is allocated).
    private var passed: [String] = []
    private var steps: [TraceStep] = []
    private var uri: URI?
    /// The URL being decided now (the run stops at a URL that does not parse).
    private var currentURL: String { uri?.string ?? "" }
    /// Bytes of texts and verdict values the trace keeps, and what it left out once that
    /// reached ``DeciderOptions/maximumTraceBytes``.
    private var traceBytes = 0
    private var traceBytesLeftOut = 0
    /// Bytes the rules' verdicts carried so far (``DeciderOptions/maximumVerdictBytes``).
    private var verdictBytes = 0
    /// When the last step ended: each step's time is the lap since then, one clock
    /// read per step.
    private var lastTick = MonotonicClock.nanoseconds()

    init(decider: Decider, request: RouteRequest, context: ContextSnapshot) {
        self.decider = decider
        self.request = request
        self.context = context
        steps.reserveCapacity(8)
    }

    /// What a step of rules concluded.
    private enum Conclusion {
        case proceed
        /// Carry on with these parameters changed.
        case rewrite([String: RuleValue])
        case stop(Decision.Outcome)
        case redirect(String, [String: RuleValue])
        case decline
    }

    /// Runs the pipeline.
    mutating func run<Functions: DeclaredFunctions>(_ session: inout Functions) -> Decision {
        var url = request.url
        pipeline: while true {
            let uri: URI
            do {
                uri = try URI(url)
            } catch {
                record(TraceStep(.parse, detail: url, error: "\(error)", nanoseconds: lap()))
                self.uri = nil
                return finish(.reject(Rejection(.invalidURL, reason: "the URL \"\(url)\" does not parse: \(error)", code: 400)))
            }
            self.uri = uri

            // The route and the best declared redirect, from one reading of the URL.
            var current: RouteMatch?
            if let table = decider.redirects.table {
                let found = decider.routes.match(uri, alsoIn: table)
                current = found.here
                if let redirect = found.other {
                    switch applyRedirects(uri, best: redirect, table: table, session: &session) {
                    case .proceed, .rewrite, .decline: break
                    case .stop(let outcome): return finish(outcome)
                    case .redirect(let target, _):
                        if let refusal = hop(to: target) { return finish(refusal) }
                        url = target
                        continue pipeline
                    }
                }
            } else {
                current = decider.routes.match(uri)
            }
            let route = current?.route  // read once: each read is a reference count
            record(TraceStep(.match, name: route?.name, detail: route?.pattern ?? "no route matches", nanoseconds: lap()))
            var alternatives: [RouteMatch]?

            while true {
                guard let match = current else {
                    switch unmatched(uri, session: &session) {
                    case .proceed, .rewrite, .decline: return finish(.unmatched)
                    case .stop(let outcome): return finish(outcome)
                    case .redirect(let target, let params):
                        if let refusal = hop(to: target) { return finish(refusal) }
                        carry(params)
                        url = target
                        continue pipeline
                    }
                }
                if let refusal = checkAccess(match) { return finish(refusal, match: match) }
                switch runChain(for: match, session: &session) {
                case .proceed, .rewrite: return finish(.open, match: match)
                case .stop(let outcome): return finish(outcome, match: match)
                case .redirect(let target, let params):
                    if let refusal = hop(to: target) { return finish(refusal, match: match) }
                    carry(params)
                    url = target
                    continue pipeline
                case .decline:
                    let all = alternatives ?? decider.routes.matches(uri)
                    alternatives = all
                    let position = all.firstIndex { $0.routeIndex == match.routeIndex }.map { $0 + 1 } ?? all.endIndex
                    current = position < all.endIndex ? all[position] : nil
                    rewrites = [:]
                    record(TraceStep(
                        .match, name: current?.route.name,
                        detail: current.map { "next match after \(match.route.name): \($0.route.pattern)" }
                            ?? "no route after \(match.route.name)",
                        nanoseconds: lap()))
                }
            }
        }
    }

    /// The decision when the pool could not lend an engine (a new one failed to compile).
    mutating func engineFailure(_ error: LuaError) -> Decision {
        record(TraceStep(.decision, error: error.description))
        return finish(.reject(Rejection(.ruleFailed, reason: "the rules could not run: \(error.message)", code: 500)))
    }

    // MARK: - Stages

    /// The first declared redirect whose pattern matches and whose `when` holds.
    private mutating func applyRedirects<Functions: DeclaredFunctions>(
        _ uri: URI, best: RouteMatch, table: RouteTable, session: inout Functions
    ) -> Conclusion {
        // The best pattern first; the others only if all of its rules' conditions fail.
        var candidates = [best]
        var expanded = false
        var position = 0
        while position < candidates.count {
            let match = candidates[position]
            for rule in decider.redirects.rulesByRoute[match.routeIndex] {
                var instructions = 0
                if let condition = rule.condition {
                    let ruleRequest = RuleRequest(
                        uri: uri, request: request, pathParameters: match.parameters, plusAsSpace: decider.routes.options.plusAsSpace)
                    let (value, error, used) = evaluateCondition(condition, ruleRequest, session: &session)
                    instructions = used
                    if let error, error.code.endsDecision {
                        record(TraceStep(
                            .redirect, name: rule.name, location: rule.location, detail: "when", error: error.description,
                            nanoseconds: lap(), instructions: used))
                        return .stop(.reject(budgetSpent(by: rule.name, error)))
                    }
                    if let error = error?.description {
                        record(TraceStep(
                            .redirect, name: rule.name, location: rule.location, detail: "when", error: error,
                            nanoseconds: lap(), instructions: used))
                        if decider.bundle?.manifest.onError ?? .reject == .reject {
                            return .stop(.reject(failure(of: rule.name, error)))
                        }
                        continue
                    }
                    guard value else {
                        record(TraceStep(
                            .redirect, name: rule.name, location: rule.location, detail: "when is false: not taken",
                            nanoseconds: lap(), instructions: used))
                        continue
                    }
                }
                let target = decider.redirects.target(of: rule, for: match)
                record(TraceStep(
                    .redirect, name: rule.name, location: rule.location, verdict: .redirect(url: target, params: [:]),
                    nanoseconds: lap(), instructions: instructions), verdictBytes: target.utf8.count)
                return .redirect(target, [:])
            }
            position += 1
            if position == candidates.count, !expanded {
                expanded = true
                candidates = table.matches(uri)
                position = candidates.firstIndex { $0.routeIndex == best.routeIndex }.map { $0 + 1 } ?? candidates.count
            }
        }
        return .proceed
    }

    /// A URL no route matched: its scheme's dispatcher, else the fallbacks.
    private mutating func unmatched<Functions: DeclaredFunctions>(_ uri: URI, session: inout Functions) -> Conclusion {
        if let scheme = uri.scheme?.lowercased(), decider.routes.options.dispatchedSchemes.contains(scheme) {
            record(TraceStep(
                .handOver, name: scheme, detail: "no route; \(scheme) URLs go to the \(scheme) dispatcher", nanoseconds: lap()))
            return .stop(.handOver(scheme: scheme))
        }
        guard !decider.fallbacks.isEmpty else { return .proceed }
        let ruleRequest = RuleRequest(uri: uri, request: request, plusAsSpace: decider.routes.options.plusAsSpace)
        for fallback in decider.fallbacks {
            let conclusion = runStep(fallback, ruleRequest, session: &session, hasRoute: false)
            switch conclusion {
            case .proceed, .rewrite, .decline: continue
            case .stop, .redirect: return conclusion
            }
        }
        return .proceed
    }

    /// Refuses a route that is not exported to a request from outside the app.
    private mutating func checkAccess(_ match: RouteMatch) -> Decision.Outcome? {
        guard request.source != .internal else { return nil }
        let route = match.route
        guard !route.isExported else {
            record(TraceStep(.access, name: route.name, detail: "exported", nanoseconds: lap()))
            return nil
        }
        let reason = "route \"\(route.name)\" is not exported, so a request from \"\(request.source)\" may not open it"
            + " (only internal ones may); mark it exported: true in the route table to allow it"
        record(TraceStep(.access, name: route.name, detail: reason, nanoseconds: lap()))
        return .reject(Rejection(.notExported, reason: reason, code: 403))
    }

    /// The route's interceptors and policies, in order, until one decides.
    private mutating func runChain<Functions: DeclaredFunctions>(
        for match: RouteMatch, session: inout Functions
    ) -> Conclusion {
        let chain = decider.plan.chain(for: match)
        var ruleRequest = RuleRequest(match: match, request: request, rewrites: rewrites)
        for step in chain.lazy.map(Unmanaged.passUnretained) {
            // Borrowed, not retained: `chain` holds every step until the loop ends, and a
            // retain and release around each step were two atomic operations.
            let conclusion = step._withUnsafeGuaranteedRef { step in
                runStep(step, ruleRequest, session: &session, hasRoute: true)
            }
            switch conclusion {
            case .proceed: continue
            case .rewrite(let params):
                rewrites.merge(params) { _, new in new }
                ruleRequest = RuleRequest(match: match, request: request, rewrites: rewrites)
            case let other: return other
            }
        }
        return .proceed
    }

    /// Runs one rule and reads its verdict.
    private mutating func runStep<Functions: DeclaredFunctions>(
        _ step: PolicyStep, _ ruleRequest: RuleRequest, session: inout Functions, hasRoute: Bool
    ) -> Conclusion {
        var verdict: Verdict?
        var failure: String?
        var spent: LuaError?
        var instructions = 0
        switch step.body {
        case .lua(let function):
            session.setRequest(ruleRequest)
            do {
                let result = try session.evaluate(declared: function)
                instructions = result.instructions
                verdict = try Verdict(result.value, rule: step.name)
            } catch {
                failure = error.description
                if error.code == .instructionBudget { instructions = decider.engines?.limits.instructions ?? 0 }
                if error.code.endsDecision { spent = error }
            }
        case .swift(let body):
            do { verdict = try body(ruleRequest, context) } catch { failure = "\(error)" }
        }
        if case .next? = verdict, !hasRoute { verdict = .continue }
        if case .rewrite = verdict, !hasRoute {
            failure = "rewrite{} has no route's parameters to change here; return redirect(url, params) instead"
            verdict = nil
        }
        // Decide what the verdict means first, so the trace step is built once, in place.
        // What a verdict carries is measured where its values are bound: most carry none.
        var detail = ""
        var size = 0
        let conclusion: Conclusion
        switch verdict {
        case nil:
            if let spent {
                detail = "the decision's budget is spent: the decision ends, whatever on_error says"
                conclusion = .stop(.reject(budgetSpent(by: step.name, spent)))
                break
            }
            detail = step.onError == .continue ? "on_error = continue: carrying on" : "on_error = reject"
            conclusion = step.onError == .continue ? .proceed : .stop(.reject(self.failure(of: step.name, failure ?? "")))
        case .continue?:
            conclusion = .proceed
        case .rewrite(let params)?:
            size = RuleValue.payloadBytes(of: params)
            conclusion = .rewrite(params)
        case .redirect(let url, let params)?:
            size = url.utf8.count + RuleValue.payloadBytes(of: params)
            conclusion = .redirect(url, params)
        case .reject(let reason, let code)?:
            size = reason.utf8.count
            conclusion = .stop(.reject(Rejection(.rule, reason: reason, code: code, rule: step.name)))
        case .gate(let url, let resume)?:
            size = url.utf8.count
            if let loop = gateLoop(url, from: ruleRequest.url) {
                detail = loop
                conclusion = .stop(.reject(Rejection(.gateLoop, reason: loop, code: 508, rule: step.name)))
            } else {
                conclusion = .stop(.gate(url: url, resume: resume))
            }
        case .next?:
            conclusion = .decline
        case .respond(let value)?:
            size = value.payloadBytes
            conclusion = .stop(.respond(value))
        }
        if size > 0 {
            verdictBytes += size
            if verdictBytes > decider.options.maximumVerdictBytes {
                let reason = "rule \"\(step.name)\" returned a verdict of \(size) bytes, which brings the decision's verdicts to "
                    + "\(verdictBytes) bytes, more than the \(decider.options.maximumVerdictBytes) a decision may carry "
                    + "(DeciderOptions.maximumVerdictBytes)"
                record(TraceStep(
                    step.stage, name: step.stage == .fallback ? nil : step.name, location: step.location,
                    detail: "verdict too large", error: reason, nanoseconds: lap(), instructions: instructions))
                return .stop(.reject(Rejection(.decisionBudget, reason: reason, code: 500, rule: step.name)))
            }
        }
        record(TraceStep(
            step.stage, name: step.stage == .fallback ? nil : step.name, location: step.location, verdict: verdict,
            detail: detail, error: failure, nanoseconds: lap(), instructions: instructions), verdictBytes: size)
        return conclusion
    }

    // MARK: - Helpers

    /// Evaluates a redirect's `when`: truthy unless `nil` or `false`.
    private mutating func evaluateCondition<Functions: DeclaredFunctions>(
        _ function: Int, _ ruleRequest: RuleRequest, session: inout Functions
    ) -> (Bool, LuaError?, Int) {
        session.setRequest(ruleRequest)
        do {
            let result = try session.evaluate(declared: function)
            switch result.value {
            case .nil, .bool(false): return (false, nil, result.instructions)
            default: return (true, nil, result.instructions)
            }
        } catch {
            return (false, error, 0)
        }
    }

    /// Counts a hop to `target`; the refusal when it closes a loop or is one too many.
    private mutating func hop(to target: String) -> Decision.Outcome? {
        // The list of visited URLs is built only to word a refusal; a hop that is allowed
        // allocates nothing but its entry in `passed`.
        guard target == currentURL || passed.contains(target) || passed.count + 1 > decider.options.maximumRedirects else {
            passed.append(currentURL)
            return nil
        }
        let visited = passed + [currentURL]
        if let first = visited.firstIndex(of: target) {
            let cycle = (visited[first...] + [target]).joined(separator: " → ")
            return .reject(Rejection(.redirectLoop, reason: "redirect loop: \(cycle)", code: 508))
        }
        if visited.count > decider.options.maximumRedirects {
            let path = (visited + [target]).joined(separator: " → ")
            return .reject(Rejection(
                .tooManyRedirects, reason: "more than \(decider.options.maximumRedirects) redirects: \(path)", code: 508))
        }
        passed.append(currentURL)
        return nil
    }

    /// Why a gate to `url` would loop, if it would.
    private func gateLoop(_ url: String, from current: String) -> String? {
        if url == current { return "gate loop: \(current) gates itself" }
        let gated = request.gatedRequests
        if gated.contains(url) {
            return "gate loop: \((gated + [current, url]).joined(separator: " → "))"
        }
        if gated.count >= decider.options.maximumGateDepth {
            return "gates nest deeper than \(decider.options.maximumGateDepth): \((gated + [current, url]).joined(separator: " → "))"
        }
        return nil
    }

    /// Carries the parameters so far (and a redirect verdict's) to the next URL.
    private mutating func carry(_ params: [String: RuleValue]) {
        if callerParams == nil { callerParams = request.params }
        request.params.merge(rewrites) { _, new in new }
        request.params.merge(params) { _, new in new }
        rewrites = [:]
    }

    private func failure(of rule: String, _ error: String) -> Rejection {
        Rejection(.ruleFailed, reason: "rule \"\(rule)\" failed: \(error)", code: 500, rule: rule)
    }

    /// The rejection of a decision whose rules spent its budget; `rule` crossed the limit.
    private func budgetSpent(by rule: String, _ error: LuaError) -> Rejection {
        Rejection(
            .decisionBudget,
            reason: "rule \"\(rule)\" crossed the decision's budget: \(error.message)", code: 500, rule: rule)
    }

    /// The decision. The run ends here, so the trace and the URLs passed are moved into
    /// it rather than copied.
    private mutating func finish(_ outcome: Decision.Outcome, match: RouteMatch? = nil) -> Decision {
        var params = request.params
        if !rewrites.isEmpty { params.merge(rewrites) { _, new in new } }
        if traceBytesLeftOut > 0 {
            steps.append(TraceStep(
                .decision,
                detail: "the trace keeps at most \(decider.options.maximumTraceBytes) bytes of texts and verdicts "
                    + "(DeciderOptions.maximumTraceBytes); \(traceBytesLeftOut) bytes of later steps were left out"))
        }
        var steps: [TraceStep] = []
        var passed: [String] = []
        var uri: URI?
        swap(&steps, &self.steps)
        swap(&passed, &self.passed)
        swap(&uri, &self.uri)
        var original = request
        if let callerParams { original.params = callerParams }
        return Decision(
            outcome: outcome, request: original, uri: uri, match: match,
            redirects: passed,
            carriedParams: params, trace: DecisionTrace(bundle: decider.bundleLabel, steps: steps))
    }

    /// Adds a step to the trace, within ``DeciderOptions/maximumTraceBytes``: past it, the
    /// step keeps its stage, rule and location but not its verdict or long texts.
    ///
    /// What a step keeps is its texts and its verdict's values (`verdictBytes`, which the
    /// caller knows).
    @inline(__always)
    private mutating func record(_ step: consuming TraceStep, verdictBytes: Int = 0) {
        let size = verdictBytes + step.detail.utf8.count + (step.error?.utf8.count ?? 0)
        guard traceBytes + size > decider.options.maximumTraceBytes else {
            traceBytes += size
            steps.append(step)
            return
        }
        compact(step, size: size)
    }

    /// Adds a step past the trace's bound: without its verdict, and of its texts no more
    /// than 80 bytes each while the bound has room (a failed step keeps its error, empty
    /// once the bound is full). What shortened steps keep counts too, so a decision of
    /// many failing rules cannot grow its trace 160 bytes a rule past the bound.
    @inline(never)
    private mutating func compact(_ step: TraceStep, size: Int) {
        let room = max(0, decider.options.maximumTraceBytes - traceBytes)
        var kept = step
        kept.verdict = nil
        kept.detail = Self.prefix(of: step.detail, bytes: min(80, room))
        kept.error = step.error.map { Self.prefix(of: $0, bytes: min(80, room - kept.detail.utf8.count)) }
        let keptSize = kept.detail.utf8.count + (kept.error?.utf8.count ?? 0)
        traceBytes += keptSize
        traceBytesLeftOut += max(0, size - keptSize)
        steps.append(kept)
    }

    /// The longest prefix of `text` of whole characters in at most `bytes` bytes of UTF-8.
    private static func prefix(of text: String, bytes: Int) -> String {
        guard text.utf8.count > bytes else { return text }
        var (end, used) = (text.startIndex, 0)
        for character in text {
            used += character.utf8.count
            guard used <= bytes else { break }
            end = text.index(after: end)
        }
        return String(text[..<end])
    }

    /// Nanoseconds since the previous lap (or the start).
    private mutating func lap() -> Int {
        let now = MonotonicClock.nanoseconds()
        defer { lastTick = now }
        return now - lastTick
    }
}
