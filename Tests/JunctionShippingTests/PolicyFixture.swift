import JunctionAuthoring
import Foundation
import Junction
import JunctionShipping

/// Pairs of small bundles whose routes AND rules differ, so a decision that mixes them shows.
///
/// In the Lua pair, bundle A routes `myapp://x` to page `PA` and its Lua interceptor stamps
/// the parameter `a`; bundle B routes it to `PB` and stamps `b`. In the redirect pair, A's
/// declared redirect sends `myapp://go` to `myapp://landing?by=a`, which A routes to `PA`;
/// B's adds `by=b` and routes to `PB`. A decision reading `PA+b` or `PB+a` is a mix. The
/// redirect pair declares no Lua function, so its decisions borrow no engine: the cheap
/// load that lets a debug build make a million decisions quickly.
enum PolicyFixture {
    /// Decided by the Lua pair's interceptor.
    static let url = "myapp://x"
    /// Decided by the redirect pair's declared redirect.
    static let redirected = "myapp://go"

    static let a = bundle("policy-a", target: "PA", rules: stampRule("a"))
    static let b = bundle("policy-b", target: "PB", rules: stampRule("b"))
    static let redirectA = bundle("redirect-a", target: "PA", rules: redirectRule("a"))
    static let redirectB = bundle("redirect-b", target: "PB", rules: redirectRule("b"))

    /// Built once: the swap-under-load test swaps these and builds nothing while it runs.
    static let snapshotA = PolicySnapshot(decider: try! Decider(bundle: a), origin: .app)
    static let snapshotB = PolicySnapshot(
        decider: try! Decider(bundle: b), origin: .update,
        identity: UpdateIdentity(seq: 2, artifactSHA256: String(repeating: "b", count: 64)))
    static let redirectSnapshotA = PolicySnapshot(decider: try! Decider(bundle: redirectA), origin: .app)
    static let redirectSnapshotB = PolicySnapshot(decider: try! Decider(bundle: redirectB), origin: .app)

    static func stampRule(_ stamp: String) -> String {
        """
        interceptor { name = "stamp", route = "x", run = function(req, ctx)
          return rewrite { params = { \(stamp) = true } }
        end }

        """
    }

    static func redirectRule(_ stamp: String) -> String {
        "redirect { from = \"\(redirected)\", to = \"myapp://landing?by=\(stamp)\" }\n"
    }

    /// A bundle folder with routes `x` and `landing` to `target` and the given rules, loaded.
    static func bundle(_ name: String, target: String, rules: String) -> RuleBundle {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent(
            "junction-\(name)-\(UUID().uuidString)")
        try! FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        let files = [
            "manifest.yaml": "name: \(name)\nversion: 1\n",
            "routes.yaml": """
            routes:
              - { name: x, pattern: "\(url)", target: \(target), exported: true }
              - { name: landing, pattern: "myapp://landing", target: \(target), exported: true }

            """,
            "rules.lua": rules,
        ]
        for (file, text) in files {
            try! text.write(to: root.appendingPathComponent(file), atomically: true, encoding: .utf8)
        }
        return try! RuleBundle.load(directory: root.path)
    }

    /// `PA+a` for bundle A's decision, `PB+b` for B's — the stamp from the interceptor's
    /// parameter or the redirect's query; a mix reads `PA+b` or `PB+a`, a failure `failed: `
    /// and the outcome.
    static func label(_ decision: Decision) -> String {
        guard case .open = decision.outcome, let target = decision.match?.route.target else {
            return "failed: \(decision.outcome)"
        }
        // The carried parameters and the URL text, not `params` and a parsed query: this runs
        // a million times in a debug build.
        let url = decision.uri?.string ?? ""
        let stamps = ["a", "b"].filter { decision.carriedParams[$0] != nil || url.hasSuffix("?by=\($0)") }
        return ([target] + stamps).joined(separator: "+")
    }
}
