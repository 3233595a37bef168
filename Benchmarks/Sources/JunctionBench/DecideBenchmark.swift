import Foundation
import Junction
import JunctionAuthoring
import JunctionCore
import JunctionLua
import JunctionShipping

/// `decide.*`: the whole decision for a URL mix (``PolicyBundleGenerator/urls``) on a
/// bundle of 1,000 routes, 20 declared redirects and three Lua interceptors that every
/// URL passes (global `audit`, group `login`, route `check-id`):
///
/// - `decide.junction`: `Decider(bundle:)` on that bundle, `decide(_:context:)` with one
///   `ContextSnapshot` instance throughout (as the API asks).
/// - `decide.swift`: the same three policies as `SwiftInterceptor` closures, on a twin
///   bundle with the same routes and redirects but no Lua at all, so the mix and its
///   redirects stay the same.
/// - `decide.peerstack`: ``PeerStack`` (URLComponents, a redirect dictionary,
///   routing-kit) calling the same Lua functions through `RuleEngine.evaluate`, a fresh
///   flat request table and the context pushed for every call.
/// - `decide.peerstack_plain`: the same peer on a plain Lua state (stock C API, plain
///   tables, no sandbox; ``PlainLuaPeerRules``).
///
/// Before timing, every contender must open the expected route with the expected `id`
/// for every URL, Junction's traces must show the three rule steps, the Swift decider
/// must agree with Junction step for step, and all four must gate a guest, reject a
/// banned user and reject an overlong id alike.
struct DecideBenchmark: BenchmarkGroup {
    let name = "decide"

    private static let contenders = ["junction", "swift", "peerstack", "peerstack_plain"]

    /// What rules read as `ctx` in the mix: a signed-in user who is not banned.
    static let contextValues: [String: RuleValue] = [
        "user": ["id": 42, "name": "ann", "vip": false], "banned": false, "app_version": "5.2.0", "platform": "ios",
    ]

    /// The same three policies in Swift.
    static let swiftInterceptors: [SwiftInterceptor] = [
        SwiftInterceptor("audit", scope: .all, priority: 10) { request, context in
            if context.values["banned"] == .bool(true) { return .reject(reason: "banned", code: 451) }
            if request.source == .h5, request.route?.isExported != true {
                return .reject(reason: "not for H5 pages", code: 403)
            }
            return .continue
        },
        SwiftInterceptor("login", scope: .group("login")) { _, context in
            switch context.values["user"] {
            case nil, .nil?, .bool(false)?: return .gate(url: "myapp://login", resume: true)
            default: return .continue
            }
        },
        SwiftInterceptor("check-id", scope: .routes(PolicyBundleGenerator.routes.filter(\.checked).map(\.name))) {
            request, _ in
            guard case .string(let id)? = request.params["id"], id.utf8.count <= 12 else {
                return .reject(reason: "bad id", code: 400)
            }
            return .continue
        },
    ]

    func run(with harness: Harness, selecting selected: (String) -> Bool) throws(BenchmarkFailure) -> [Measurement] {
        guard
            Self.contenders.contains(where: { selected("\(name).\($0)") })
                || Self.logContenders.contains(where: selected)
        else { return [] }
        StandardError.print(
            "\(name): generating a bundle of \(PolicyBundleGenerator.routeCount) routes, \(PolicyBundleGenerator.redirects.count) redirects, 3 Lua interceptors"
        )
        let folders = try PolicyBundleGenerator.write()
        defer { PolicyBundleGenerator.remove(folders) }

        let junction: Decider
        let swift: Decider
        do {
            junction = try Decider(bundle: try RuleBundle.load(directory: folders.full))
            swift = try Decider(
                bundle: try RuleBundle.load(directory: folders.redirectsOnly), interceptors: Self.swiftInterceptors)
        } catch {
            throw BenchmarkFailure("\(name): the generated bundle does not load: \(error)")
        }
        let sandboxed = PeerStack(rules: try SandboxedPeerRules())
        let plain = PeerStack(rules: try PlainLuaPeerRules())
        let samples = PolicyBundleGenerator.urls
        let context = ContextSnapshot(Self.contextValues)
        sandboxed.rules.setContext(Self.contextValues)
        plain.rules.setContext(Self.contextValues)

        try verify(samples, context: context, junction: junction, swift: swift, sandboxed: sandboxed, plain: plain)

        let requests = samples.map { RouteRequest($0.url, source: RequestSource(rawValue: $0.source)) }
        var contenders: [Contender] = []
        func add(_ contender: String, _ body: @escaping (Int) -> Int) {
            if selected("\(name).\(contender)") {
                contenders.append(
                    Contender(
                        name: "\(name).\(contender)", n: PolicyBundleGenerator.routeCount,
                        operationsPerIteration: samples.count,
                        body: body))
            }
        }
        add("junction") { iterations in Self.decide(junction, requests, context, iterations: iterations) }
        add("swift") { iterations in Self.decide(swift, requests, context, iterations: iterations) }
        add("peerstack") { iterations in Self.decide(sandboxed, samples, iterations: iterations) }
        add("peerstack_plain") { iterations in Self.decide(plain, samples, iterations: iterations) }
        let table = junction.routes
        add("match_only") { iterations in Self.match(table, requests, iterations: iterations) }
        contenders += Self.logContenders(junction, requests, context, selected: selected)

        StandardError.print("\(name): timing \(contenders.count) contenders, interleaved")
        let measurements = harness.measure(contenders)
        for measurement in measurements {
            StandardError.print(
                String(
                    format: "  %@: %.1f ns/decision (%.1f–%.1f, %d samples of %d decisions)",
                    measurement.name, measurement.nanosecondsPerOperation, measurement.fastest, measurement.slowest,
                    measurement.samples, measurement.operationsPerSample))
        }
        for line in ratioLines(measurements) { StandardError.print("  " + line) }
        if selected("\(name).junction") {
            StandardError.print("  " + Self.stageBreakdown(junction, requests, context))
        }
        return measurements
    }

    // MARK: - The decision log

    /// The decision log. `decide.logged`: `decide.junction` with every decision recorded in
    /// the device's log (sample 1, the worst case), a full log dropping its oldest as it
    /// goes, as a log between uploads does: what recording adds to a decision is its paired
    /// ratio to `decide.junction`, less one. `log.record`: the recording alone, over
    /// decisions made beforehand (so their release is not the log's to pay);
    /// `log.record_sampled` the same at the example bundle's `sample: 0.1`. `log.write`:
    /// what the uploader's task pays later to write a kept decision's line.
    static let logContenders = ["decide.logged", "log.record", "log.record_sampled", "log.write"]

    private static func logContenders(
        _ decider: Decider, _ requests: [RouteRequest], _ context: ContextSnapshot, selected: (String) -> Bool
    ) -> [Contender] {
        let decisions = requests.map { decider.decide($0, context: context) }
        let policy = DecisionLogPolicy(sample: 1, context: ["app_version"])
        var contenders: [Contender] = []
        if selected("decide.logged") {
            let log = DecisionLog(limits: DecisionLog.Limits(maximumLines: 500))
            contenders.append(
                Contender(
                    name: "decide.logged", n: PolicyBundleGenerator.routeCount, operationsPerIteration: requests.count
                ) { iterations in
                    var sink = 0
                    for _ in 0..<iterations {
                        for request in requests {
                            let decision = decider.decide(request, context: context)
                            sink &+= decision.trace.steps.count &+ (decision.match?.route.name.utf8.count ?? 0)
                            sink &+= log.record(decision, context: context, policy: policy, appVersion: "6.1.0") ? 1 : 0
                        }
                    }
                    return sink
                })
        }
        for (name, sample) in [("log.record", 1.0), ("log.record_sampled", 0.1)] where selected(name) {
            let log = DecisionLog(limits: DecisionLog.Limits(maximumLines: 500))
            var sampled = policy
            sampled.sample = sample
            contenders.append(
                Contender(name: name, n: PolicyBundleGenerator.routeCount, operationsPerIteration: decisions.count) {
                    [sampled] iterations in
                    var sink = 0
                    for _ in 0..<iterations {
                        for decision in decisions {
                            sink &+=
                                log.record(decision, context: context, policy: sampled, appVersion: "6.1.0") ? 1 : 0
                        }
                    }
                    return sink
                })
        }
        if selected("log.write") {
            let time = Date()
            contenders.append(
                Contender(
                    name: "log.write", n: PolicyBundleGenerator.routeCount, operationsPerIteration: decisions.count
                ) { iterations in
                    var sink = 0
                    for _ in 0..<iterations {
                        for decision in decisions {
                            sink &+=
                                DecisionLogLine.make(
                                    decision, context: context, policy: policy, appVersion: "6.1.0", time: time)?
                                .utf8.count ?? 0
                        }
                    }
                    return sink
                })
        }
        return contenders
    }

    // MARK: - Timed bodies

    private static func decide(
        _ decider: Decider, _ requests: [RouteRequest], _ context: ContextSnapshot, iterations: Int
    ) -> Int {
        var sink = 0
        for _ in 0..<iterations {
            for request in requests {
                let decision = decider.decide(request, context: context)
                sink &+= decision.trace.steps.count &+ (decision.match?.route.name.utf8.count ?? 0)
            }
        }
        return sink
    }

    /// The floor: parse and match each URL once, as any router must.
    private static func match(_ table: RouteTable, _ requests: [RouteRequest], iterations: Int) -> Int {
        var sink = 0
        for _ in 0..<iterations {
            for request in requests {
                sink &+= (try? table.match(request.url))??.route.name.utf8.count ?? 0
            }
        }
        return sink
    }

    private static func decide<Rules>(
        _ peer: PeerStack<Rules>, _ samples: [PolicyBundleGenerator.Sample], iterations: Int
    ) -> Int {
        var sink = 0
        for _ in 0..<iterations {
            for sample in samples {
                if case .open(let route, _) = peer.decide(sample.url, source: sample.source).kind {
                    sink &+= route.utf8.count
                }
            }
        }
        return sink
    }

    // MARK: - Verification

    /// The rule steps of a trace: `global audit → continue`, … .
    private static func ruleSteps(_ decision: Decision) -> [String] {
        decision.trace.steps.filter { [.global, .group, .route].contains($0.stage) }.map { step in
            "\(step.stage.rawValue) \(step.name ?? "?") → \(step.verdict?.summary ?? "no verdict")"
                + (step.error.map { " ✗ \($0)" } ?? "")
        }
    }

    private func verify<A, B>(
        _ samples: [PolicyBundleGenerator.Sample], context: ContextSnapshot, junction: Decider, swift: Decider,
        sandboxed: PeerStack<A>, plain: PeerStack<B>
    ) throws(BenchmarkFailure) {
        let expectedSteps = zip(["global", "group", "route"], PolicyBundleGenerator.ruleSteps).map {
            "\($0) \($1) → continue"
        }
        var problems: [String] = []
        for sample in samples {
            let expected = DecideOutcome(kind: .open(route: sample.route, id: sample.id), redirected: sample.redirected)
            let request = RouteRequest(sample.url, source: RequestSource(rawValue: sample.source))
            let decision = junction.decide(request, context: context)
            let trace = decision.trace.steps.map(\.description).joined(separator: "\n      ")
            if DecideOutcome(decision) != expected {
                problems.append(
                    "\(name).junction, \(sample.url): expected \(expected), got \(DecideOutcome(decision))\n      \(trace)"
                )
            }
            if Self.ruleSteps(decision) != expectedSteps {
                problems.append(
                    "\(name).junction, \(sample.url): the trace does not show the three rule steps \(expectedSteps)\n      \(trace)"
                )
            }
            if sample.redirected, !decision.trace.steps.contains(where: { $0.stage == .redirect }) {
                problems.append("\(name).junction, \(sample.url): no redirect step in the trace\n      \(trace)")
            }
            let twin = swift.decide(request, context: context)
            if DecideOutcome(twin) != DecideOutcome(decision) || Self.ruleSteps(twin) != Self.ruleSteps(decision) {
                problems.append(
                    """
                    \(name).swift, \(sample.url): \(DecideOutcome(twin)) \(Self.ruleSteps(twin)), \
                    but junction: \(DecideOutcome(decision)) \(Self.ruleSteps(decision))
                    """)
            }
            for (peer, decide) in [("peerstack", sandboxed.decide), ("peerstack_plain", plain.decide)]
                as [(String, (String, String, ((PeerRule) -> Void)?) -> DecideOutcome)]
            {
                var ran: [PeerRule] = []
                let outcome = decide(sample.url, sample.source) { ran.append($0) }
                if outcome != expected || ran != PeerRule.allCases {
                    problems.append(
                        "\(name).\(peer), \(sample.url): expected \(expected) after \(PeerRule.allCases), got \(outcome) after \(ran)"
                    )
                }
            }
        }

        // The rules must be able to stop a request, alike in all four: a guest is sent to
        // log in, a banned user refused, an overlong id refused.
        let probe = samples.first { !$0.redirected && $0.source == "internal" }!
        let longID = probe.url.replacingOccurrences(of: probe.id, with: "1234567890123")
        for (label, values, url, expected) in [
            (
                "a guest", Self.contextValues.filter { $0.key != "user" }, probe.url,
                DecideOutcome.Kind.gate(url: "myapp://login")
            ),
            ("a banned user", Self.contextValues.merging(["banned": true]) { $1 }, probe.url, .reject(code: 451)),
            ("an overlong id", Self.contextValues, longID, .reject(code: 400)),
        ] {
            let snapshot = ContextSnapshot(values)
            sandboxed.rules.setContext(values)
            plain.rules.setContext(values)
            let outcomes = [
                ("junction", DecideOutcome(junction.decide(RouteRequest(url), context: snapshot))),
                ("swift", DecideOutcome(swift.decide(RouteRequest(url), context: snapshot))),
                ("peerstack", sandboxed.decide(url, source: "internal")),
                ("peerstack_plain", plain.decide(url, source: "internal")),
            ]
            for (contender, outcome) in outcomes where outcome.kind != expected {
                problems.append(
                    "\(name).\(contender), \(url) for \(label): expected \(DecideOutcome(kind: expected, redirected: false)), got \(outcome)"
                )
            }
        }
        sandboxed.rules.setContext(Self.contextValues)
        plain.rules.setContext(Self.contextValues)

        guard problems.isEmpty else {
            throw BenchmarkFailure(
                """
                \(name): the contenders do not decide as expected, so timing them would compare different work:
                  \(problems.joined(separator: "\n  "))
                Fix the bundle or mix in PolicyBundleGenerator.swift (or the contender at fault).
                """)
        }
        StandardError.print(
            """
            \(name): all \(Self.contenders.count) contenders open the expected route for \(samples.count) URLs \
            (\(samples.filter(\.redirected).count) through a declared redirect), every one through audit, login and check-id; \
            and stop a guest, a banned user and an overlong id alike
            """)
    }

    // MARK: - Report

    /// Where Junction's time goes by the decisions' own traces: mean nanoseconds per
    /// decision of each stage (each step times itself, so the clock reads are extra).
    private static func stageBreakdown(_ decider: Decider, _ requests: [RouteRequest], _ context: ContextSnapshot)
        -> String
    {
        var totals: [TraceStep.Stage: Int] = [:]
        let rounds = 20
        for _ in 0..<rounds {
            for request in requests {
                for step in decider.decide(request, context: context).trace.steps {
                    totals[step.stage, default: 0] += step.nanoseconds
                }
            }
        }
        let decisions = Double(rounds * requests.count)
        let order: [TraceStep.Stage] = [.redirect, .match, .access, .global, .group, .route]
        return "decide.junction by its traces, ns per decision: "
            + order.compactMap { stage in
                totals[stage].map { String(format: "%@ %.0f", stage.rawValue, Double($0) / decisions) }
            }.joined(separator: ", ")
    }

    private func ratioLines(_ measurements: [Measurement]) -> [String] {
        func value(_ contender: String) -> Measurement? { measurements.first { $0.name == "\(name).\(contender)" } }
        var lines: [String] = []
        guard let junction = value("junction") else { return lines }
        lines.append(
            String(
                format: "target decide.junction ≤ 2000 ns: %@ (%.1f ns)",
                junction.nanosecondsPerOperation <= 2000 ? "met" : "MISSED", junction.nanosecondsPerOperation))
        if let peer = value("peerstack") {
            let ratio = junction.pairedRatio(to: peer)
            lines.append(
                String(format: "target junction/peerstack ≤ 0.4×: %@ (%.3f×)", ratio <= 0.4 ? "met" : "MISSED", ratio))
        }
        if let plain = value("peerstack_plain") {
            lines.append(
                String(
                    format: "junction/peerstack_plain: %.3f× (the peer on plain Lua tables, no sandbox)",
                    junction.pairedRatio(to: plain)))
        }
        if let swift = value("swift") {
            lines.append(
                String(
                    format: "junction/swift: %.3f× (the same policies as Swift closures)",
                    junction.pairedRatio(to: swift)))
        }
        if let logged = measurements.first(where: { $0.name == "decide.logged" }) {
            let added = logged.pairedRatio(to: junction) - 1
            lines.append(
                String(
                    format:
                        "target log.record ≤ 5%% of decide.junction: %@ (decide.logged/decide.junction − 1: %.1f%%, %.0f ns)",
                    added <= 0.05 ? "met" : "MISSED", added * 100, added * junction.nanosecondsPerOperation))
        }
        if let record = measurements.first(where: { $0.name == "log.record" }) {
            lines.append(
                String(
                    format: "log.record alone: %.1f ns, %.1f%% of decide.junction (every decision kept)",
                    record.nanosecondsPerOperation,
                    100 * record.nanosecondsPerOperation / junction.nanosecondsPerOperation))
        }
        if let sampled = measurements.first(where: { $0.name == "log.record_sampled" }) {
            lines.append(
                String(
                    format: "log.record_sampled: %.1f ns, %.1f%% of decide.junction (sample 0.1, the example's)",
                    sampled.nanosecondsPerOperation,
                    100 * sampled.nanosecondsPerOperation / junction.nanosecondsPerOperation))
        }
        if let write = measurements.first(where: { $0.name == "log.write" }) {
            lines.append(
                String(
                    format: "log.write: %.0f ns a line, on the uploader's task (%.2f× decide.junction)",
                    write.nanosecondsPerOperation, write.nanosecondsPerOperation / junction.nanosecondsPerOperation))
        }
        if let floor = value("match_only") {
            lines.append(
                String(
                    format:
                        "junction/match_only: %.2f× (a bare parse + match of the same URLs, %.0f ns: the floor of any router)",
                    junction.pairedRatio(to: floor), floor.nanosecondsPerOperation))
        }
        return lines
    }

    func report(_ measurements: [Measurement]) -> String {
        var lines = [
            "\(name): nanoseconds per decision over \(PolicyBundleGenerator.urls.count) URLs, \(PolicyBundleGenerator.routeCount) routes, "
                + "median of \(measurements.first?.samples ?? 0) samples (lower is better); ratios are medians of per-round ratios"
        ]
        for measurement in measurements {
            lines.append(
                "  " + measurement.name.padding(toLength: 24, withPad: " ", startingAt: 0)
                    + String(format: "%10.1f ns", measurement.nanosecondsPerOperation))
        }
        lines.append("")
        lines += ratioLines(measurements).map { "  " + $0 }
        return lines.joined(separator: "\n") + "\n"
    }
}
