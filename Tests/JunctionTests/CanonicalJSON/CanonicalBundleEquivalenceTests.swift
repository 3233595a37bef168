import Foundation
import Junction
import JunctionAuthoring
import JunctionCore
import JunctionLua
import Testing

/// A bundle loaded from its folder and the same bundle rebuilt from the canonical JSON of
/// its parts — what a device gets from an artifact — decide alike and pass the same tests.
@Suite struct CanonicalBundleEquivalenceTests {
    /// `rules/example`, every fixture folder with a manifest, and the benchmark's bundle.
    static let bundles: [String] = {
        let root = CLIPaths.repositoryRoot
        var folders = [root + "/rules/example"]
        let manager = FileManager.default
        for target in ((try? manager.contentsOfDirectory(atPath: root + "/Tests")) ?? []).sorted() {
            let fixtures = root + "/Tests/" + target + "/Fixtures"
            for name in ((try? manager.contentsOfDirectory(atPath: fixtures)) ?? []).sorted()
            where manager.fileExists(atPath: fixtures + "/" + name + "/manifest.yaml") {
                folders.append(fixtures + "/" + name)
            }
        }
        folders.append((try? GeneratedPolicyBundle.write()) ?? "the generated bundle could not be written")
        return folders
    }()

    @Test(arguments: bundles)
    func decidesAlikeFromItsCanonicalJSON(directory: String) throws {
        defer {
            if directory.contains("junction-generated-") { try? FileManager.default.removeItem(atPath: directory) }
        }
        guard let loaded = try? RuleBundle.load(directory: directory) else {
            // Fixtures of broken bundles do not load; nothing would ship them.
            #expect(directory.contains("/Fixtures/"), "\(directory) does not load")
            return
        }
        let parts = try loaded.canonicalJSON()
        let again = try loaded.canonicalJSON()
        #expect(parts.manifest == again.manifest && parts.routes == again.routes && parts.tests == again.tests)

        let rebuilt = try RuleBundle(
            canonicalManifest: parts.manifest, routes: parts.routes, tests: parts.tests,
            sources: loaded.sources.reversed(), directory: loaded.directory)
        #expect(rebuilt.manifest == loaded.manifest)
        #expect(rebuilt.routes.routes == loaded.routes.routes)
        #expect(rebuilt.routes.options == loaded.routes.options)
        #expect(rebuilt.tests == loaded.tests)
        #expect(rebuilt.sources == loaded.sources)
        #expect(
            rebuilt.testFiles == loaded.testFiles.filter { file in loaded.tests.contains { $0.location.file == file } })
        #expect(rebuilt.declarations.interceptors.map(\.name) == loaded.declarations.interceptors.map(\.name))
        let rebuiltParts = try rebuilt.canonicalJSON()
        #expect(rebuiltParts.manifest == parts.manifest && rebuiltParts.routes == parts.routes)
        #expect(rebuiltParts.tests == parts.tests)

        let (original, copy) = (try Decider(bundle: loaded), try Decider(bundle: rebuilt))
        let requests = Self.requests(for: loaded)
        if directory.hasSuffix("rules/example") || !directory.contains("/Fixtures/") {
            #expect(requests.count >= 300, "\(requests.count) requests")
        }
        var outcomes: Set<Substring> = []
        for (request, context) in requests {
            let (a, b) = (original.decide(request, context: context), copy.decide(request, context: context))
            #expect(Self.fingerprint(a) == Self.fingerprint(b), "\(request.url) from \(request.source)")
            outcomes.insert(a.summary.prefix { $0 != " " })
        }
        if directory.hasSuffix("rules/example") || !directory.contains("/Fixtures/") {
            // The requests reach opens, gates and rejections, not one outcome.
            #expect(outcomes.count >= 3, "\(outcomes.sorted())")
        }
        for test in loaded.tests {
            let (a, b) = (original.run(test), copy.run(test))
            #expect(a.passed == b.passed && a.failures == b.failures, "\(test.name)")
        }
    }

    /// What must be the same: the outcome, the route, its parameters, the redirects, and
    /// the trace step by step (without its timings).
    static func fingerprint(_ decision: Decision) -> [String] {
        [
            decision.summary, decision.match?.route.name ?? "-", RuleValue.table(decision.params).description,
            decision.redirects.joined(separator: " "),
        ]
            + decision.trace.steps.map { step in
                "\(step.stage) \(step.name ?? "-") \(step.location ?? "-") \(step.verdict.map { "\($0)" } ?? "-") "
                    + "\(step.error ?? "-") \(step.detail)"
            }
    }

    /// The bundle's tests' own requests, and sample URLs of every route (and of every
    /// declared redirect) opened from three sources with three contexts.
    static func requests(for bundle: RuleBundle) -> [(RouteRequest, ContextSnapshot)] {
        var requests: [(RouteRequest, ContextSnapshot)] = []
        for test in bundle.tests {
            let params: [String: RuleValue] = if case .table(let fields) = test.params { fields } else { [:] }
            let context: [String: RuleValue] = if case .table(let fields) = test.context { fields } else { [:] }
            requests.append(
                (
                    RouteRequest(test.open, params: params, source: RequestSource(rawValue: test.source)),
                    ContextSnapshot(context)
                ))
        }
        let patterns = bundle.routes.routes.map(\.pattern) + bundle.declarations.redirects.map(\.from)
        var urls: [String] = []
        for pattern in patterns {
            for expansion in expansions(of: pattern) {
                for value in ["42", "AB123456", "abc", "0000000000042"] {
                    var url = expansion.replacing(/:[A-Za-z_][A-Za-z0-9_]*(\((?:[^()]|\([^()]*\))*\))?/, with: value)
                    url = url.replacing("**", with: "a/b").replacing("*", with: "x")
                    if url.hasPrefix("/") { url = "myapp:/" + url }
                    urls.append(url)
                }
            }
        }
        let contexts: [ContextSnapshot] = [
            ContextSnapshot(), ContextSnapshot(["user": ["id": 1], "app_version": "5.3.0"]),
            ContextSnapshot(["user": ["id": 7, "age": 15], "app_version": "6.0.0", "banned": true]),
        ]
        let sources: [RequestSource] = [.internal, .push, .h5]
        for (index, url) in urls.enumerated() {
            // Every URL once from each source; the context turns with it.
            for (turn, source) in sources.enumerated() {
                requests.append(
                    (
                        RouteRequest(url + (index % 3 == 1 ? "?ref=push&coupon=A" : ""), source: source),
                        contexts[(index + turn) % contexts.count]
                    ))
            }
        }
        return requests
    }

    /// A pattern with each optional group `(/…)` taken and left out.
    static func expansions(of pattern: String) -> [String] {
        guard let open = pattern.range(of: "(/") else { return [pattern] }
        var depth = 0
        var close = open.lowerBound
        for index in pattern[open.lowerBound...].indices {
            if pattern[index] == "(" { depth += 1 }
            if pattern[index] == ")" { depth -= 1 }
            if depth == 0 {
                close = index
                break
            }
        }
        let before = pattern[..<open.lowerBound]
        let inner = pattern[pattern.index(after: open.lowerBound)..<close]
        let after = pattern[pattern.index(after: close)...]
        return expansions(of: String(before + inner + after)) + expansions(of: String(before + after))
    }
}
