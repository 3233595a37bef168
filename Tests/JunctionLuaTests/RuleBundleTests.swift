import Foundation
import JunctionAuthoring
import JunctionCore
import JunctionLua
import Testing

@Suite struct RuleBundleTests {
    /// Writes `files` (relative path → text) into a new folder and returns its path.
    static func folder(_ files: [String: String]) throws -> String {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("junction-bundle-\(UUID().uuidString)")
        for (path, text) in files {
            let url = root.appendingPathComponent(path)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: url, atomically: true, encoding: .utf8)
        }
        return root.path
    }

    @Test func loadsAndCompilesACompleteBundle() throws {
        let directory = try Self.folder([
            "manifest.yaml": "name: shop\nversion: 3\nminimum_host_version: 5.0\n",
            "routes.yaml": "routes:\n  - name: home\n    pattern: myapp://home\n    exported: true\n",
            "b_policies.lua":
                "group('login', function(req, ctx) if ctx.user == nil then return gate('myapp://login') end end)\n",
            "a_redirects.lua": "redirect { from = 'myapp://old', to = 'myapp://home' }\n",
            "tests/login.yaml": "tests:\n  - open: myapp://orders\n    expect: { gate: myapp://login }\n",
            "tests/notes.txt": "not a test\n",
        ])
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let bundle = try RuleBundle.load(directory: directory)
        #expect(bundle.manifest.name == "shop" && bundle.manifest.version == .integer(3))
        #expect(bundle.routes.routes.map(\.name) == ["home"])
        #expect(bundle.sources.map(\.name) == ["a_redirects.lua", "b_policies.lua"])
        #expect(bundle.declarations.redirects.map(\.to) == ["myapp://home"])
        #expect(bundle.declarations.groups.first?.location == "b_policies.lua:1")
        #expect(bundle.testFiles == ["\(directory)/tests/login.yaml"])
        #expect(bundle.tests.map(\.expectation.gate) == ["myapp://login"])
        let verdict = try bundle.engines.withEngine { engine throws(LuaError) in
            try engine.evaluate(declared: bundle.declarations.groups[0].function, arguments: [[:], [:]])
        }
        #expect(try Verdict(verdict.value, rule: "login") == .gate(url: "myapp://login", resume: true))
    }

    @Test func reportsEveryProblemAndLoadsNothing() throws {
        let directory = try Self.folder([
            "manifest.yaml": "name: shop\n",
            "broken.lua": "function f()\n  return = 1\nend\n",
            "tests/a.yaml": "tests:\n  - open: myapp://a\n",
        ])
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let error = #expect(throws: BundleError.self) { try RuleBundle.load(directory: directory) }
        #expect(
            error?.diagnostics.map(\.description) == [
                "\(directory)/manifest.yaml:1:1: error: missing \"version:\" — a whole number or a semantic version that grows with every release",
                "\(directory):1:1: error: the bundle has no routes.yaml or routes.yml or routes.json (its route table)",
                "\(directory)/tests/a.yaml:2:5: error: this test has no \"expect:\" — what the decision must be",
                "\(directory)/broken.lua:2:1: error: unexpected symbol near '=' [syntax]",
            ])
    }

    /// The rules compile on another thread while the route table is read; the problems
    /// stay in the order of the files: manifest, route table, unreadable rules, tests, then
    /// what the compiler found.
    @Test func listsProblemsInFileOrderWhileRulesCompileAside() throws {
        let directory = try Self.folder([
            "manifest.yaml": "name: shop\n",
            "routes.yaml": "routes:\n  - name: a\n",
            "broken.lua": "function f()\n  return = 1\nend\n",
            "tests/a.yaml": "tests:\n  - open: myapp://a\n",
        ])
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try Data([0x2D, 0x2D, 0xFF, 0xFE, 0x0A]).write(to: URL(fileURLWithPath: directory + "/binary.lua"))
        let error = #expect(throws: BundleError.self) { try RuleBundle.load(directory: directory) }
        #expect(
            error?.diagnostics.map(\.description) == [
                "\(directory)/manifest.yaml:1:1: error: missing \"version:\" — a whole number or a semantic version that grows with every release",
                "\(directory)/routes.yaml:2:5: error: route \"a\" has no \"pattern:\"",
                "\(directory)/binary.lua:1:1: error: cannot read the file as UTF-8 text",
                "\(directory)/tests/a.yaml:2:5: error: this test has no \"expect:\" — what the decision must be",
                "\(directory)/broken.lua:2:1: error: unexpected symbol near '=' [syntax]",
            ])
    }

    @Test func namesARuleThatFailsWhileLoading() throws {
        let directory = try Self.folder([
            "manifest.yaml": "name: shop\nversion: 1\n",
            "routes.yaml": "routes: []\n",
            "setup.lua": "local limits = { max = 3 }\n\nlimits.max = limits.max + nil\n",
        ])
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let error = #expect(throws: BundleError.self) { try RuleBundle.load(directory: directory) }
        #expect(error?.diagnostics.count == 1)
        #expect(
            error?.diagnostics.first?.location == SourceLocation(file: "\(directory)/setup.lua", line: 3, column: 1))
        #expect(error?.diagnostics.first?.message.hasPrefix("attempt to perform arithmetic on a nil value") == true)
    }

    @Test func saysWhenThereIsNoDirectory() throws {
        let file = try Self.folder(["manifest.yaml": "name: shop\nversion: 1\n"]) + "/manifest.yaml"
        defer { try? FileManager.default.removeItem(atPath: (file as NSString).deletingLastPathComponent) }
        for (path, what) in [("/nonexistent/bundle", "no such directory"), (file, "not a directory")] {
            let error = #expect(throws: BundleError.self) { try RuleBundle.load(directory: path) }
            #expect(
                error?.diagnostics.map(\.description) == [
                    "\(path):1:1: error: \(what); give the bundle's folder, the one with manifest.yaml and routes.yaml"
                ])
        }
    }

    /// The manifest is read before the tests: their context is typed by its `context:`,
    /// their source checked against its `sources:`.
    @Test func checksTestsAgainstTheManifest() throws {
        let manifest = """
            name: shop
            version: 1
            sources: [mini_program]
            context:
              app_version: version
              user: { id: int }
            """
        let good = try Self.folder([
            "manifest.yaml": manifest, "routes.yaml": "routes: []\n",
            "tests/a.yaml": """
            tests:
              - open: myapp://a
                source: mini_program
                context: { app_version: 6.0, user: { id: 7 } }
                expect: { unmatched: true }
            """,
        ])
        defer { try? FileManager.default.removeItem(atPath: good) }
        let bundle = try RuleBundle.load(directory: good)
        #expect(bundle.manifest.context == ["app_version": .version, "user": .table(["id": .int])])
        #expect(bundle.tests.map(\.context) == [["app_version": "6.0", "user": ["id": 7]]])

        let bad = try Self.folder([
            "manifest.yaml": manifest, "routes.yaml": "routes: []\n",
            "tests/a.yaml": """
            tests:
              - open: myapp://a
                source: mini_programme
                context: { app_version: 6.0, user: { idd: 7 } }
                expect: { unmatched: true }
            """,
        ])
        defer { try? FileManager.default.removeItem(atPath: bad) }
        let error = #expect(throws: BundleError.self) { try RuleBundle.load(directory: bad) }
        #expect(
            error?.diagnostics.map(\.description) == [
                "\(bad)/tests/a.yaml:3:13: error: source \"mini_programme\" is neither standard nor declared in the manifest's sources: (internal, push, universal_link, h5, external, mini_program); did you mean \"mini_program\"?",
                "\(bad)/tests/a.yaml:4:42: error: context key \"user.idd\" is not declared in the manifest's context:; did you mean \"user.id\"?",
            ])
    }
}
