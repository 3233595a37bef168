import Foundation
import JunctionCore
import JunctionLua
import RoutingKit

/// One of the three rules, as the peer stack calls it: a global Lua function by name.
enum PeerRule: CaseIterable {
    case audit, requireLogin, checkID

    /// The Lua function.
    var function: String {
        switch self {
        case .audit: "audit"
        case .requireLogin: "require_login"
        case .checkID: "check_id"
        }
    }

    /// The name Junction's traces give the step.
    var stepName: String { PolicyBundleGenerator.ruleSteps[PeerRule.allCases.firstIndex(of: self)!] }
}

/// The request as the peer hands it to each rule: a flat table of `url`, `path`,
/// `source` and `params`, built afresh for every call.
struct PeerRequest {
    var url: String
    var path: String
    var source: String
    var params: [String: String]
}

/// Calls a rule with a fresh request table and reads its verdict.
protocol PeerRuleRunner: AnyObject {
    func run(_ rule: PeerRule, _ request: PeerRequest) -> Verdict
    /// What rules read as `ctx` from now on.
    func setContext(_ values: [String: RuleValue])
}

/// The usual way, without Junction's decider: Foundation's `URLComponents` parses,
/// a dictionary finds declared redirects (old host and path → new URL, a trailing
/// `{id}` filled from the last segment), routing-kit's `TrieRouter` matches the host
/// and path segments, the route's `exported` flag is checked against the source, then
/// the route's rules run one Lua call each — global, group `login`, route — each with
/// a request table built for it.
final class PeerStack<Rules: PeerRuleRunner> {
    struct RouteInfo {
        var name: String
        var parameterNames: [String]
        var exported: Bool
        var rules: [PeerRule]
    }

    let rules: Rules
    private let router = TrieRouter(RouteInfo.self)
    /// One `Parameters` made up front and copied per request, so routing-kit does not
    /// create a `Logger` on every match (as in `match.routingkit`).
    private let emptyParameters = Parameters()
    /// Constant redirects: `promo/spring0` → `myapp://module11/item/700`.
    private let constantRedirects: [String: String]
    /// Redirects ending in a parameter, by their host and path before it:
    /// `old/module3/item` → `myapp://module3/item/` (the last segment is appended).
    private let parameterRedirects: [String: String]
    private let maximumRedirects = 8

    init(rules: Rules) {
        self.rules = rules
        for route in PolicyBundleGenerator.routes {
            var peerRules: [PeerRule] = [.audit]
            if route.groups.contains("login") { peerRules.append(.requireLogin) }
            if route.checked { peerRules.append(.checkID) }
            let info = RouteInfo(
                name: route.name,
                parameterNames: route.components.filter { $0.hasPrefix(":") }.map { String($0.dropFirst()) },
                exported: route.exported, rules: peerRules)
            router.register(
                info,
                at: route.components.map { $0.hasPrefix(":") ? .parameter(String($0.dropFirst())) : .constant($0) })
        }
        var constant: [String: String] = [:]
        var parameterized: [String: String] = [:]
        for redirect in PolicyBundleGenerator.redirects {
            if redirect.hasParameter {
                precondition(redirect.to.hasSuffix("{id}"), "the peer fills only a trailing {id}")
                parameterized[redirect.key] = String(redirect.to.dropLast("{id}".count))
            } else {
                constant[redirect.key] = redirect.to
            }
        }
        constantRedirects = constant
        parameterRedirects = parameterized
    }

    /// Decides one request.
    /// - Parameter ran: Told of each rule that ran, for verification.
    func decide(_ url: String, source: String, ran: ((PeerRule) -> Void)? = nil) -> DecideOutcome {
        var url = url
        var redirected = false
        for _ in 0...maximumRedirects {
            guard let components = URLComponents(string: url), let host = components.host else {
                return DecideOutcome(kind: .reject(code: 400), redirected: redirected)
            }
            let path = components.path
            let key = host + path
            if let target = redirect(key) {
                url = target
                redirected = true
                continue
            }
            var segments = [host]
            for segment in path.split(separator: "/") { segments.append(String(segment)) }
            var parameters = emptyParameters
            guard let route = router.route(path: segments, parameters: &parameters) else {
                return DecideOutcome(kind: .unmatched, redirected: redirected)
            }
            if source != "internal", !route.exported {
                return DecideOutcome(kind: .reject(code: 403), redirected: redirected)
            }
            var params: [String: String] = [:]
            for name in route.parameterNames { params[name] = parameters.get(name) }
            let request = PeerRequest(url: url, path: path, source: source, params: params)
            for rule in route.rules {
                ran?(rule)
                if let stop = DecideOutcome.stopping(rules.run(rule, request), redirected: redirected) { return stop }
            }
            return DecideOutcome(kind: .open(route: route.name, id: params["id"]), redirected: redirected)
        }
        return DecideOutcome(kind: .reject(code: 508), redirected: redirected)
    }

    private func redirect(_ key: String) -> String? {
        if let target = constantRedirects[key] { return target }
        guard let slash = key.lastIndex(of: "/"), let prefix = parameterRedirects[String(key[..<slash])] else {
            return nil
        }
        return prefix + key[key.index(after: slash)...]
    }
}

/// The peer's rules through JunctionLua's public API, the only way it offers to pass
/// tables: `RuleEngine.evaluate(_:arguments:)` with the request and the context, both
/// pushed (read-only, as the API always makes them) for every call. Same sandbox and
/// budgets as Junction's rules.
final class SandboxedPeerRules: PeerRuleRunner {
    let engine: RuleEngine
    private var context: RuleValue = .table([:])

    init() throws(BenchmarkFailure) {
        do {
            engine = try RuleEngine(sources: [RuleSource(name: "peer.lua", text: PolicyBundleGenerator.ruleFunctions)])
        } catch {
            throw BenchmarkFailure("decide: the peer's rules do not compile: \(error)")
        }
    }

    func setContext(_ values: [String: RuleValue]) {
        context = .table(values)
    }

    func run(_ rule: PeerRule, _ request: PeerRequest) -> Verdict {
        var params: [String: RuleValue] = [:]
        for (name, value) in request.params { params[name] = .string(value) }
        let table: RuleValue = .table([
            "url": .string(request.url), "path": .string(request.path), "source": .string(request.source),
            "params": .table(params),
        ])
        do {
            let result = try engine.evaluate(rule.function, arguments: [table, context])
            return try Verdict(result.value, rule: rule.function)
        } catch {
            return .reject(reason: error.description, code: 500)
        }
    }
}
