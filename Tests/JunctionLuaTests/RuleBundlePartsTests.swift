import JunctionCore
import JunctionLua
import Testing

@Suite struct RuleBundlePartsTests {
    static let manifest = BundleManifest(name: "shop", version: .integer(3))

    static func routes() throws -> RouteTable {
        try RouteTable(routes: [Route(name: "home", pattern: "myapp://home", isExported: true)])
    }

    @Test func runsTheSourcesInNameOrderAsAFolderDoes() throws {
        let bundle = try RuleBundle(
            directory: "shop.jbundle", manifest: Self.manifest, routes: Self.routes(),
            sources: [
                RuleSource(name: "b.lua", text: "group('login', function(req, ctx) end)\n"),
                RuleSource(name: "a.lua", text: "redirect { from = 'myapp://old', to = 'myapp://home' }\n"),
            ], tests: [])
        #expect(bundle.sources.map(\.name) == ["a.lua", "b.lua"])
        #expect(bundle.declarations.groups.map(\.location) == ["b.lua:1"])
        #expect(bundle.directory == "shop.jbundle")
        #expect(bundle.testFiles.isEmpty)
    }

    @Test func namesItsFilesInsideTheGivenName() throws {
        let routes = try Self.routes()
        do {
            _ = try RuleBundle(
                directory: "shop.jbundle", manifest: Self.manifest, routes: routes,
                sources: [RuleSource(name: "bad.lua", text: "\nlocal x = = 1\n")], tests: [])
            Issue.record("compiled bad.lua")
        } catch {
            #expect(
                error.description
                    == "shop.jbundle/bad.lua:2:1: error: unexpected symbol near '=' [syntax]")
        }
    }

    @Test func refusesTwoSourcesOfOneName() throws {
        let routes = try Self.routes()
        do {
            _ = try RuleBundle(
                directory: "shop.jbundle", manifest: Self.manifest, routes: routes,
                sources: [RuleSource(name: "a.lua", text: ""), RuleSource(name: "a.lua", text: "")], tests: [])
            Issue.record("took two a.lua")
        } catch {
            #expect(
                error.description
                    == #"shop.jbundle:1:1: error: two rule files are named "a.lua"; give each its own name"#)
        }
    }

    @Test func reportsEveryPartThatDoesNotDecode() throws {
        do {
            _ = try RuleBundle(
                canonicalManifest: Array(#"{"name":"shop"}"#.utf8), routes: Array("{\"routes\":[],}".utf8),
                tests: Array("[{}]".utf8), sources: [], directory: "shop.jbundle")
            Issue.record("decoded broken parts")
        } catch {
            #expect(
                error.description == """
                    manifest.json:1:1: error: the document: missing "version"
                    routes.json:1:1: error: byte 13: a trailing comma before }
                    tests.json:1:1: error: [0]: missing "name"
                    """)
        }
    }

    /// The rules compile while the parts decode: a bundle with a broken part and broken
    /// rules reports the part first, then the rule files' names, then the rule.
    @Test func reportsThePartsThenTheRules() throws {
        let broken = RuleSource(name: "a.lua", text: "interceptor {")
        let routes = try Self.routes().canonicalJSON()
        do {
            _ = try RuleBundle(
                canonicalManifest: Array(#"{"name":"shop"}"#.utf8), routes: routes,
                tests: Array("[]".utf8), sources: [broken, broken], directory: "shop.jbundle")
            Issue.record("decoded broken parts")
        } catch {
            let lines = error.description.split(separator: "\n").map(String.init)
            #expect(lines.count == 3)
            #expect(lines.first == #"manifest.json:1:1: error: the document: missing "version""#)
            #expect(lines.dropFirst().first?.contains(#"two rule files are named "a.lua""#) == true)
            #expect(lines.last?.hasPrefix("shop.jbundle/a.lua:1:1: error: ") == true)
        }
    }

    @Test func boundsEachPartByTheGivenLimits() throws {
        let manifest = try Self.manifest.canonicalJSON()
        let routes = try Self.routes().canonicalJSON()
        do {
            _ = try RuleBundle(
                canonicalManifest: manifest, routes: routes, tests: Array("[]".utf8),
                sources: [], directory: "shop.jbundle", json: CanonicalJSONLimits(maximumBytes: 60))
            Issue.record("read a route table over the limit")
        } catch {
            #expect(error.description.hasPrefix("routes.json:1:1: error: the text has "))
            #expect(error.description.hasSuffix(" bytes, more than the 60 allowed"))
        }
    }
}
