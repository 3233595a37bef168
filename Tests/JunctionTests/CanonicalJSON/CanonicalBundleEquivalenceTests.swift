import Foundation
import Junction
import JunctionAuthoring
import JunctionCore
import JunctionLua
import JunctionTestSupport
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
        let requests = DecisionSamples.requests(for: loaded)
        if directory.hasSuffix("rules/example") || !directory.contains("/Fixtures/") {
            #expect(requests.count >= 300, "\(requests.count) requests")
        }
        var outcomes: Set<Substring> = []
        for (request, context) in requests {
            let (a, b) = (original.decide(request, context: context), copy.decide(request, context: context))
            #expect(
                DecisionSamples.fingerprint(a) == DecisionSamples.fingerprint(b),
                "\(request.url) from \(request.source)")
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
}
