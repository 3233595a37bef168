package import Junction

/// What a fleet's decision logs say, counted line by line (`junction logs report`):
/// decisions by outcome, route, deciding rule and cause, bundle and app version; failures
/// with their messages; and from the status lines, the devices on each bundle seq (each
/// install counted once, at the last seq it reported) and refusals by code.
///
/// Every table is bounded: at most ``maximumKeys`` distinct keys each, the rest counted
/// under ``otherKey``; at most ``maximumInstalls`` installs are told apart.
package struct DecisionLogReport: Sendable {
    /// The most distinct keys one table keeps.
    package static let maximumKeys = 1_000
    /// The most installs told apart for the devices per seq.
    package static let maximumInstalls = 1_000_000
    /// Where keys past ``maximumKeys`` are counted.
    package static let otherKey = "(other)"

    /// Decision lines read.
    package private(set) var decisions = 0
    /// Decisions by outcome (`open`, `reject`, `gate`, …).
    package private(set) var outcomes = Tally()
    /// Decisions by route (`(none)` without one).
    package private(set) var routes = Tally()
    /// Decisions by deciding rule and, for a refusal, its cause (`group login (policies.lua:4)`,
    /// `route checkout-v2 · rule_failed`).
    package private(set) var rules = Tally()
    /// Decisions by bundle (`example@3`).
    package private(set) var bundles = Tally()
    /// Decisions by app version.
    package private(set) var appVersions = Tally()
    /// Decisions where a rule failed, by rule and message.
    package private(set) var failures = Tally()
    /// Status lines read.
    package private(set) var statuses = 0
    /// Refusals of updates by code.
    package private(set) var refusals = Tally()
    /// The last seq each install reported, by install.
    private var lastSeq: [String: String] = [:]
    /// Installs past ``maximumInstalls``, not told apart.
    package private(set) var installsLeftOut = 0
    /// Lines the devices dropped before sending, as their drop reports (`"kind": "dropped"`)
    /// say: a buffer full while the collector was away, a line too long, a batch refused.
    package private(set) var droppedOnDevices = 0
    /// Lines that were neither: another kind, or not a log line.
    package private(set) var otherLines = 0

    /// An empty report.
    package init() {}

    /// Devices by the last bundle seq they reported (`epoch 1 seq 7`).
    package var devicesBySeq: Tally {
        var tally = Tally()
        for seq in lastSeq.values { tally.add(seq) }
        return tally
    }

    /// Counts one line of a log, a JSON object.
    package mutating func add(_ fields: [String: RuleValue]) {
        switch fields["kind"] {
        case .string("decision")?: addDecision(fields)
        case .string("status")?: addStatus(fields)
        case .string("dropped")?:
            if case .int(let count)? = fields["lines"], count > 0 {
                // A hostile line's count cannot overflow the total: it saturates.
                let (sum, overflow) = droppedOnDevices.addingReportingOverflow(Int(clamping: count))
                droppedOnDevices = overflow ? .max : sum
            } else {
                otherLines += 1
            }
        default: otherLines += 1
        }
    }

    private mutating func addDecision(_ fields: [String: RuleValue]) {
        decisions += 1
        let decision: [String: RuleValue] = if case .table(let table)? = fields["decision"] { table } else { [:] }
        outcomes.add(Self.text(decision["outcome"]) ?? "(none)")
        routes.add(Self.text(decision["route"]) ?? "(none)")
        var rule = Self.text(decision["rule"]) ?? "(no rule)"
        if let cause = Self.text(decision["cause"]) { rule += " · " + cause }
        rules.add(rule)
        bundles.add(Self.text(fields["bundle"]) ?? "(none)")
        appVersions.add(Self.text(fields["app_version"]) ?? "(none)")
        if let error = Self.text(decision["error"]) {
            failures.add((Self.text(decision["rule"]) ?? "a rule") + ": " + String(error.prefix(120)))
        }
    }

    private mutating func addStatus(_ fields: [String: RuleValue]) {
        statuses += 1
        if let code = Self.text(fields["code"]) { refusals.add(code) }
        guard let install = Self.text(fields["install"]), case .int(let seq)? = fields["seq"] else { return }
        let epoch: Int64 = if case .int(let value)? = fields["epoch"] { value } else { 0 }
        let key = "epoch \(epoch) seq \(seq)"
        if lastSeq[install] != nil || lastSeq.count < Self.maximumInstalls {
            lastSeq[install] = key
        } else {
            installsLeftOut += 1
        }
    }

    private static func text(_ value: RuleValue?) -> String? {
        if case .string(let text)? = value { text } else { nil }
    }

    /// Counts by key, bounded: keys past ``DecisionLogReport/maximumKeys`` count under
    /// ``DecisionLogReport/otherKey``.
    package struct Tally: Sendable, Hashable {
        package private(set) var counts: [String: Int] = [:]
        package private(set) var total = 0

        /// Counts one `key`.
        package mutating func add(_ key: String) {
            total += 1
            if counts[key] != nil || counts.count < DecisionLogReport.maximumKeys {
                counts[key, default: 0] += 1
            } else {
                counts[DecisionLogReport.otherKey, default: 0] += 1
            }
        }

        /// The keys, most counted first (ties by key).
        package var sorted: [(key: String, count: Int)] {
            counts.map { ($0.key, $0.value) }.sorted { $0.1 != $1.1 ? $0.1 > $1.1 : $0.0 < $1.0 }
        }
    }
}
