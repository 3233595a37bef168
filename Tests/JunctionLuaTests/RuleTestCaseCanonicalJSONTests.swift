import JunctionAuthoring
import JunctionCore
import JunctionLua
import Testing

@Suite struct RuleTestCaseCanonicalJSONTests {
    /// Every key of a test and of `expect:`.
    static let yaml = """
        tests:
          - name: opens a profile
            open: myapp://user/7?tab=posts
            source: push
            context: { user: { id: 7, score: 2.0, nick: null }, app_version: "5.3.0", flags: [] }
            params: { coupon: SPRING, count: 3 }
            expect: { route: user, params: { id: 7, ratio: 0.5 } }
          - open: myapp://old
            expect: { redirect: "myapp://new?x=1" }
          - name: not redirected
            open: myapp://new
            expect: { redirect: none, route: new }
          - name: refused
            open: myapp://shop
            expect: { reject: store closed, code: 451, cause: rule }
          - name: a loop
            open: myapp://a
            expect: { cause: redirect_loop, code: 508 }
          - name: gated
            open: myapp://orders
            expect: { gate: myapp://login }
          - name: answers
            open: myapp://action/x
            expect: { respond: { ok: true, n: [1, 2.5, "3"] } }
          - name: answers nil
            open: myapp://action/y
            expect: { respond: null }
          - name: nothing takes it
            open: other://x
            expect: { unmatched: true }
          - name: handed over
            open: https://example.com/x
            expect: { hand_over: HTTPS }
          - name: any failure
            open: myapp://broken
            expect: { fails: true, reject: true }
          - name: named failures
            open: myapp://broken
            expect: { fails: [push-audit, "policies.lua:4"], cause: rule_failed }
        """

    static let directory = "/bundles/shop"

    @Test func readsBackEveryTestAndExpectation() throws {
        let manifest = try BundleManifest.load(text: "name: shop\nversion: 1\n", file: "manifest.yaml")
        let tests = try RuleTestCase.load(text: Self.yaml, file: Self.directory + "/tests/all.yaml", manifest: manifest)
        let json = try RuleTestCase.canonicalJSON(tests, relativeTo: Self.directory)
        let back = try RuleTestCase.decode(canonicalJSON: json, directory: Self.directory, manifest: manifest)
        #expect(back == tests)
        #expect(back.count == 12)
        #expect(try RuleTestCase.canonicalJSON(back, relativeTo: Self.directory) == json)
        #expect(back[7].expectation.respond == .nil)
        #expect(back[2].expectation.noRedirect)
    }

    @Test func writesATestExactly() throws {
        let tests = try RuleTestCase.load(
            text:
                "tests:\n  - name: t\n    open: myapp://a\n    context: { n: 1.0 }\n    expect: { fails: [x], code: 500, cause: rule_failed }\n",
            file: "b/tests/t.yaml")
        #expect(
            String(decoding: try RuleTestCase.canonicalJSON(tests, relativeTo: "b"), as: UTF8.self)
                == #"[{"context":{"n":1.0},"expect":{"cause":"rule_failed","code":500,"fails":["x"]},"#
                + #""location":"tests/t.yaml:2:5","name":"t","open":"myapp://a"}]"#)
    }

    static let location = #""location":"tests/t.yaml:1:1""#

    static let refusals: [(String, String)] = [
        ("{}", "tests.json: the document: expected an array of tests, found an object"),
        (#"[{"open":"a","expect":{"unmatched":true},"# + location + "}]", #"tests.json: [0]: missing "name""#),
        (#"[{"name":"t","open":"a","# + location + "}]", #"tests.json: [0]: missing "expect""#),
        (#"[{"name":"t","open":"a","expect":{},"# + location + "}]", "tests.json: [0].expect: says nothing to check"),
        (#"[{"name":"t","open":"a","expect":{"unmatched":true}}]"#, #"tests.json: [0]: missing "location""#),
        (
            #"[{"name":"t","open":"a","expect":{"code":42},"# + location + "}]",
            "tests.json: [0].expect.code: 42 is outside 100–999"
        ),
        (
            #"[{"name":"t","open":"a","expect":{"cause":"loop"},"# + location + "}]",
            #"tests.json: [0].expect.cause: "loop" is not a cause of rejection"#
        ),
        (
            #"[{"name":"t","open":"a","expect":{"fails":[]},"# + location + "}]",
            "tests.json: [0].expect.fails: expected true or 1 to 100 rules, found an array"
        ),
        (
            #"[{"name":"t","open":"a","expect":{"fails":false},"# + location + "}]",
            "tests.json: [0].expect.fails: expected true or 1 to 100 rules, found false"
        ),
        (
            #"[{"name":"t","open":"a","expect":{"fails":[""]},"# + location + "}]",
            "tests.json: [0].expect.fails: an empty rule designates no rule"
        ),
        (
            #"[{"name":"t","open":"a","expect":{"route":"r","gates":"g"},"# + location + "}]",
            "tests.json: [0].expect.gates: unknown member; [0].expect has cause, code, fails, gate, hand_over, no_redirect, params, reason, redirect, reject, respond, route, then, unmatched"
        ),
        (
            #"[{"name":"t","open":"a","params":[1],"expect":{"unmatched":true},"# + location + "}]",
            "tests.json: [0].params: expected an object, found an array"
        ),
        (
            #"[{"name":"t","open":"a","source":"pusj","expect":{"unmatched":true},"# + location + "}]",
            #"tests.json: [0].source: source "pusj" is neither standard nor declared in the manifest's sources: (internal, push, universal_link, h5, external); did you mean "push"?"#
        ),
        (
            #"[{"name":"t","open":"a","expect":{"unmatched":true},"# + location
                + #"},{"name":"t","open":"b","expect":{"unmatched":true},"#
                + location + "}]",
            #"tests.json: [1].name: a test named "t" is already in tests/t.yaml"#
        ),
    ]

    @Test func typesTheContextByTheManifestsSchema() throws {
        let manifest = try BundleManifest.load(
            text: "name: shop\nversion: 1\ncontext: { user: { id: int } }\n", file: "manifest.yaml")
        for (context, message) in [
            (#"{"user":{"id":"7"}}"#, "tests.json: [0].context: user.id: expected int, found string"),
            (
                #"{"usr":{}}"#,
                #"tests.json: [0].context: usr: not declared in the context schema; did you mean "user"?"#
            ),
            ("[]", "tests.json: [0].context: expected an object, found an array"),
        ] {
            let json =
                #"[{"name":"t","open":"a","context":"# + context + #","expect":{"unmatched":true},"# + Self.location
                + "}]"
            do {
                _ = try RuleTestCase.decode(canonicalJSON: Array(json.utf8), manifest: manifest)
                Issue.record("read \(context)")
            } catch {
                #expect(error.description == message)
            }
        }
        let fits =
            #"[{"name":"t","open":"a","context":{"user":{"id":7}},"expect":{"unmatched":true},"# + Self.location + "}]"
        #expect(try RuleTestCase.decode(canonicalJSON: Array(fits.utf8), manifest: manifest).count == 1)
    }

    @Test(arguments: refusals)
    func refusesATestWithItsPath(json: String, message: String) throws {
        let manifest = try BundleManifest.load(text: "name: shop\nversion: 1\n", file: "manifest.yaml")
        do {
            _ = try RuleTestCase.decode(canonicalJSON: Array(json.utf8), manifest: manifest)
            Issue.record("read \(json)")
        } catch {
            #expect(error.description == message)
        }
    }
}
