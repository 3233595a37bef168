public import Foundation
public import Junction
internal import JunctionArtifact

/// One decision as a line of the decision log: the fields of a corpus line — `url`,
/// `source`, `params`, `context` — that `junction diff --urls` reads, so a day of logs is
/// tomorrow's corpus, and what was decided, by which bundle, on which app, when:
///
/// ```json
/// {"app_version":"6.1.0","bundle":"example@3","context":{"app_version":"6.1.0"},"decision":{"outcome":"open","route":"checkout.v2","rule":"route checkout-v2-rollout (interceptors.lua:13)"},"kind":"decision","source":"push","time":"2026-11-28T17:00:00Z","url":"myapp://checkout?coupon=SPRING"}
/// ```
///
/// Masked as the bundle's ``DecisionLogPolicy`` says before anything is written: only the
/// context keys it lists; the values of query parameters and params named like
/// credentials, or listed in `mask`, replaced by `"masked"`, those in `hash` by
/// `"sha256:"` and 16 hex digits of their SHA-256; a URL's user information and fragment
/// left out. Canonical JSON, one line.
public enum DecisionLogLine {
    /// The most bytes of a line; a longer one is not logged (the log counts it dropped).
    public static let maximumBytes = 8 * 1024
    /// What a masked value is written as.
    static let masked = "masked"

    /// Whether a decision is kept under `policy`: refusals, gates, unmatched URLs and
    /// decisions where a rule failed always; opens, answers and hand-overs with the
    /// policy's sample, drawn from `draw` (a number in 0..<1).
    /// - Parameters:
    ///   - decision: The decision.
    ///   - policy: The bundle's log policy.
    ///   - draw: The random number for this decision.
    public static func keeps(_ decision: Decision, policy: DecisionLogPolicy, draw: Double) -> Bool {
        guard policy.isEnabled else { return false }
        // The draw first: a sampled decision needs no look at its trace.
        return LoggedDecision.isAlwaysKept(decision) || draw < policy.sample || LoggedDecision.ruleFailed(decision)
    }

    /// The line for `decision`, masked by `policy`.
    /// - Parameters:
    ///   - decision: The decision.
    ///   - context: The context it was decided in.
    ///   - policy: What the bundle lets the device log.
    ///   - appVersion: The app's version, when known.
    ///   - time: When it was decided.
    /// - Returns: The line, or `nil` when it is longer than ``maximumBytes`` or a value
    ///   cannot be written as JSON.
    public static func make(
        _ decision: Decision, context: ContextSnapshot, policy: DecisionLogPolicy, appVersion: String?, time: Date
    ) -> String? {
        make(LoggedDecision(decision), context: context, policy: policy, appVersion: appVersion, time: time)
    }

    /// The line for a decision as the log holds it.
    static func make(
        _ decision: LoggedDecision, context: ContextSnapshot, policy: DecisionLogPolicy, appVersion: String?,
        time: Date
    ) -> String? {
        var fields: [String: RuleValue] = [
            "kind": "decision",
            "url": .string(maskedURL(decision.url, policy: policy, pathParameters: decision.pathParameters)),
            "source": .string(decision.source.rawValue), "time": .string(RFC3339.format(time)),
            "decision": .table(summary(of: decision)),
        ]
        if !decision.params.isEmpty { fields["params"] = .table(maskedValues(decision.params, policy: policy)) }
        let logged = loggableContext(context.values, paths: policy.context)
        if !logged.isEmpty { fields["context"] = .table(logged) }
        if let bundle = decision.bundle { fields["bundle"] = .string(bundle) }
        if let appVersion { fields["app_version"] = .string(appVersion) }
        guard let bytes = try? CanonicalJSON.encode(.table(fields)), bytes.count <= maximumBytes else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The outcome, the route, the deciding rule, and a refusal's cause, code and reason.
    static func summary(of decision: LoggedDecision) -> [String: RuleValue] {
        var summary: [String: RuleValue] = [:]
        switch decision.outcome {
        case .open: summary["outcome"] = "open"
        case .respond: summary["outcome"] = "respond"
        case .reject(let rejection):
            summary["outcome"] = "reject"
            summary["cause"] = .string(rejection.cause.rawValue)
            if let code = rejection.code { summary["code"] = .int(Int64(code)) }
            summary["reason"] = .string(String(rejection.reason.prefix(200)))
        case .gate(let url):
            summary["outcome"] = "gate"
            summary["gate"] = .string(url)
        case .handOver(let scheme):
            summary["outcome"] = "hand_over"
            summary["scheme"] = .string(scheme)
        case .unmatched:
            summary["outcome"] = "unmatched"
        }
        if let route = decision.route { summary["route"] = .string(route) }
        if let stage = decision.stepStage {
            summary["rule"] = .string(
                [stage.rawValue, decision.stepName, decision.stepLocation.map { "(\($0))" }].compactMap(\.self)
                    .joined(separator: " "))
            if let error = decision.stepError { summary["error"] = .string(String(error.prefix(200))) }
        }
        return summary
    }

    /// The context keys `paths` names (`user.id` keeps `user`'s `id` only), nothing else.
    static func loggableContext(_ values: [String: RuleValue], paths: [String]) -> [String: RuleValue] {
        var kept: [String: RuleValue] = [:]
        for path in paths {
            let keys = path.split(separator: ".").map(String.init)
            guard let value = value(at: keys[...], in: values) else { continue }
            insert(value, at: keys[...], into: &kept)
        }
        return kept
    }

    private static func value(at keys: ArraySlice<String>, in table: [String: RuleValue]) -> RuleValue? {
        guard let first = keys.first, let value = table[first] else { return nil }
        if keys.count == 1 { return value }
        guard case .table(let nested) = value else { return nil }
        return self.value(at: keys.dropFirst(), in: nested)
    }

    private static func insert(_ value: RuleValue, at keys: ArraySlice<String>, into table: inout [String: RuleValue]) {
        guard let first = keys.first else { return }
        if keys.count == 1 {
            table[first] = value
            return
        }
        var nested: [String: RuleValue] = if case .table(let fields)? = table[first] { fields } else { [:] }
        insert(value, at: keys.dropFirst(), into: &nested)
        table[first] = .table(nested)
    }

    /// Params with credential-like, masked and hashed names' values replaced.
    static func maskedValues(_ values: [String: RuleValue], policy: DecisionLogPolicy) -> [String: RuleValue] {
        var result: [String: RuleValue] = [:]
        for (name, value) in values {
            switch treatment(of: name, policy: policy) {
            case .keep: result[name] = value
            case .mask: result[name] = .string(masked)
            case .hash: result[name] = .string(hash(value.compactDescription))
            }
        }
        return result
    }

    /// `url` without its user information and fragment, and with its query values masked
    /// or hashed by name; a URL that does not parse is kept to its scheme.
    static func maskedURL(_ url: String, policy: DecisionLogPolicy, pathParameters: PathParameters? = nil) -> String {
        guard let uri = try? URI(url) else {
            return url.firstIndex(of: ":").map { String(url[...$0]) + "masked" } ?? masked
        }
        var text = ""
        if let scheme = uri.scheme { text += scheme + ":" }
        if uri.hasAuthority {
            text += "//"
            if let host = uri.percentEncodedHost { text += host }
            if let port = uri.port { text += ":\(port)" }
        }
        text += maskedPath(uri.percentEncodedPath, policy: policy, pathParameters: pathParameters)
        if let query = uri.percentEncodedQuery {
            let items = query.split(separator: "&", omittingEmptySubsequences: false).map { item -> String in
                guard let equals = item.firstIndex(of: "=") else { return String(item) }
                let rawName = item[..<equals]
                let name = (try? PercentEncoding.decode(String(rawName), plusAsSpace: true)) ?? String(rawName)
                switch treatment(of: name, policy: policy) {
                case .keep: return String(item)
                case .mask: return rawName + "=" + masked
                case .hash:
                    let raw = String(item[item.index(after: equals)...])
                    let value = (try? PercentEncoding.decode(raw, plusAsSpace: true)) ?? raw
                    return rawName + "=" + PercentEncoding.encode(hash(value))
                }
            }
            text += "?" + items.joined(separator: "&")
        }
        return text
    }

    /// `path` with the segments that hold a masked or hashed path parameter's value (or a
    /// credential-like one's) replaced, as its query values are.
    static func maskedPath(_ path: String, policy: DecisionLogPolicy, pathParameters: PathParameters?) -> String {
        guard let pathParameters else { return path }
        let hidden = pathParameters.filter { treatment(of: $0.name, policy: policy) != .keep }
        guard !hidden.isEmpty else { return path }
        return path.split(separator: "/", omittingEmptySubsequences: false).map { segment -> String in
            let decoded = (try? PercentEncoding.decode(String(segment), plusAsSpace: false)) ?? String(segment)
            guard !segment.isEmpty, let parameter = hidden.first(where: { $0.value == decoded }) else {
                return String(segment)
            }
            return treatment(of: parameter.name, policy: policy) == .mask
                ? masked : PercentEncoding.encode(hash(decoded))
        }.joined(separator: "/")
    }

    private enum Treatment { case keep, mask, hash }

    private static func treatment(of name: String, policy: DecisionLogPolicy) -> Treatment {
        if DecisionLogPolicy.isCredential(name) || policy.masked.contains(name) { return .mask }
        return policy.hashed.contains(name) ? .hash : .keep
    }

    /// `sha256:` and the first 16 hex digits of the SHA-256 of `text`.
    package static func hash(_ text: String) -> String {
        "sha256:" + SHA256Text.of(Array(text.utf8)).prefix(16)
    }
}
