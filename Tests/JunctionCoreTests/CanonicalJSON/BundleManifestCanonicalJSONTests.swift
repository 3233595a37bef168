import JunctionAuthoring
import JunctionCore
import Testing

@Suite struct BundleManifestCanonicalJSONTests {
    static let manifests: [(String, String)] = [
        ("name: shop\nversion: 12\n", #"{"name":"shop","on_error":"reject","version":12}"#),
        (
            "name: shop\nversion: 12\ncontext: { user: { id: int } }\nlog: { sample: 0.1, context: [user.id], mask: [phone], hash: [uid] }\n",
            #"{"context":[{"name":"user","type":{"table":[{"name":"id","type":"int"}]}}],"log":{"context":["user.id"],"#
                + #""hash":["uid"],"mask":["phone"],"sample":0.1},"name":"shop","on_error":"reject","version":12}"#
        ),
        ("name: shop\nversion: 12\nlog: off\n", #"{"log":"off","name":"shop","on_error":"reject","version":12}"#),
        (
            "name: shop\nversion: 12\nallow:\n  - { code: group-near-policy, at: vip, reason: \"the free tier\" }\n",
            #"{"allow":[{"at":"vip","code":"group-near-policy","reason":"the free tier"}],"name":"shop","#
                + #""on_error":"reject","version":12}"#
        ),
        (
            """
            name: shop.v2
            version: 1.4.0-beta.1
            minimum_host_version: 5.0
            description: "Routing \\"policy\\"\\n"
            on_error: continue
            sources: [mini_program, car_play]
            context:
              app_version: version
              user: { id: int, tags: [string], prefs: { dark: bool } }
              scores: [[number]]
              anything: any
            """,
            #"{"context":[{"name":"app_version","type":"version"},{"name":"user","type":{"table":[{"name":"id","type":"int"},"#
                + #"{"name":"tags","type":{"list":"string"}},{"name":"prefs","type":{"table":[{"name":"dark","type":"bool"}]}}]}},"#
                + #"{"name":"scores","type":{"list":{"list":"number"}}},{"name":"anything","type":"any"}],"#
                + #""description":"Routing \"policy\"\n","minimum_host_version":"5.0.0","name":"shop.v2","on_error":"continue","#
                + #""sources":["mini_program","car_play"],"version":"1.4.0-beta.1"}"#
        ),
    ]

    @Test(arguments: manifests)
    func writesEveryFieldAndReadsItBack(yaml: String, json: String) throws {
        let manifest = try BundleManifest.load(text: yaml, file: "manifest.yaml")
        let bytes = try manifest.canonicalJSON()
        #expect(String(decoding: bytes, as: UTF8.self) == json)
        let back = try BundleManifest(canonicalJSON: bytes)
        #expect(back == manifest)
        #expect(back.context?.fields.map(\.name) == manifest.context?.fields.map(\.name))
    }

    static let refusals: [(String, String)] = [
        (
            #"{"allow":[{"at":"vip","code":"group-near-policy"}],"name":"a","version":1}"#,
            #"manifest.json: allow[0]: missing "reason""#
        ),
        (
            #"{"allow":[{"at":"vip","code":"group-near-policy","reason":""}],"name":"a","version":1}"#,
            "manifest.json: allow[0].reason: reason must not be empty"
        ),
        (#"{"version":1}"#, #"manifest.json: the document: missing "name""#),
        (#"{"name":"a b","version":1}"#, #"manifest.json: name: "a b" must be letters, digits, ".", "_" and "-""#),
        (
            #"{"name":"a","version":-1}"#,
            "manifest.json: version: expected a whole number or a semantic version as text, found -1"
        ),
        (#"{"name":"a","version":"12"}"#, #"manifest.json: version: "12" is not a semantic version (1.4.0)"#),
        (
            #"{"name":"a","version":1,"on_error":"ignore"}"#,
            #"manifest.json: on_error: must be reject or continue (got "ignore")"#
        ),
        (
            #"{"name":"a","version":1,"minimum_host_version":"five"}"#,
            #"manifest.json: minimum_host_version: "five" is not a version: expected a number at byte 1, found "f"; "#
                + "versions read like 6.2, v6.0.1, 6.0.1-beta.2 or 6.0.1 (1234)"
        ),
        (
            #"{"name":"a","version":1,"sources":["push"]}"#,
            #"manifest.json: sources[0]: source "push" must be lowercase letters, digits and "_", neither standard nor listed twice"#
        ),
        (
            #"{"name":"a","version":1,"context":[{"name":"a","type":"int"},{"name":"a","type":"int"}]}"#,
            #"manifest.json: context[1].name: context key "a" is empty or declared twice"#
        ),
        (
            #"{"name":"a","version":1,"context":[{"name":"a","type":"integer"}]}"#,
            #"manifest.json: context[0].type: unknown type "integer"; expected one of string, int, number, bool, version, any, {"list":TYPE} or {"table":[…]}"#
        ),
        (
            #"{"name":"a","version":1,"context":[{"name":"a","type":{"table":[]}}]}"#,
            "manifest.json: context[0].type.table: an empty table declares no keys"
        ),
        (
            #"{"name":"a","version":1,"context":[{"name":"a","type":{"set":"int"}}]}"#,
            #"manifest.json: context[0].type: a type object has "list" or "table""#
        ),
        (
            #"{"name":"a","version":1,"extra":true}"#,
            "manifest.json: extra: unknown member; the document has allow, context, description, log, minimum_host_version, name, on_error, sources, version"
        ),
    ]

    @Test(arguments: refusals)
    func refusesAManifestWithItsPath(json: String, message: String) {
        do {
            _ = try BundleManifest(canonicalJSON: Array(json.utf8))
            Issue.record("read \(json)")
        } catch {
            #expect(error.description == message)
        }
    }

    @Test func boundsTheContextSchema() {
        var type = #""int""#
        for _ in 0..<8 { type = #"{"list":"# + type + "}" }
        let deep = #"{"name":"a","version":1,"context":[{"name":"k","type":"# + type + "}]}"
        do {
            _ = try BundleManifest(canonicalJSON: Array(deep.utf8))
            Issue.record("read a schema nine levels deep")
        } catch {
            #expect(
                error.description
                    == "manifest.json: context[0].type.list.list.list.list.list.list.list: nests deeper than 8 levels of tables and lists"
            )
        }
        let keys = (0...ContextSchema.maximumKeys).map { #"{"name":"k\#($0)","type":"int"}"# }.joined(separator: ",")
        do {
            _ = try BundleManifest(canonicalJSON: Array((#"{"name":"a","version":1,"context":["# + keys + "]}").utf8))
            Issue.record("read \(ContextSchema.maximumKeys + 1) keys")
        } catch {
            #expect(
                error.description == "manifest.json: context[1000]: the context schema declares more than 1000 keys")
        }
    }
}
