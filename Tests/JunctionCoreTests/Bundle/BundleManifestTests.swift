import JunctionAuthoring
import JunctionCore
import Testing

@Suite struct BundleManifestTests {
    @Test func readsEveryField() throws {
        let manifest = try BundleManifest.load(
            text: """
                name: example-shop
                version: 12
                minimum_host_version: 5.2
                description: Routing policy of the example shop.
                on_error: continue
                """, file: "manifest.yaml")
        #expect(
            manifest
                == BundleManifest(
                    name: "example-shop", version: .integer(12), minimumHostVersion: SemanticVersion(5, 2),
                    description: "Routing policy of the example shop.", onError: .continue))
    }

    @Test func readsTheAppsOwnSources() throws {
        let manifest = try BundleManifest.load(
            text: "name: shop\nversion: 1\nsources: [mini_program, car_play]", file: "manifest.yaml")
        #expect(manifest.sources == ["mini_program", "car_play"])
        #expect(manifest.knownSources == RequestSource.standard + ["mini_program", "car_play"])
    }

    @Test func readsJSONAndSemanticVersionsAndDefaultsToReject() throws {
        let manifest = try BundleManifest.load(text: #"{"name": "shop", "version": "1.4.0"}"#, file: "manifest.json")
        #expect(manifest.version == .semantic(SemanticVersion(1, 4, 0)))
        #expect(manifest.onError == .reject)
        #expect(manifest.minimumHostVersion == nil)
    }

    @Test(arguments: [
        ("version: 3", "m.yaml:1:1: error: missing \"name:\" — the bundle's name"),
        (
            "name: shop",
            "m.yaml:1:1: error: missing \"version:\" — a whole number or a semantic version that grows with every release"
        ),
        (
            "name: my shop\nversion: 1",
            "m.yaml:1:7: error: name \"my shop\" must be letters, digits, \".\", \"_\" and \"-\""
        ),
        (
            "name: shop\nversion: soon",
            "m.yaml:2:10: error: version \"soon\" is neither a whole number (12) nor a semantic version (1.4.0)"
        ),
        (
            "name: shop\nversion: 1\nminimum_host_version: five",
            "m.yaml:3:23: error: minimum_host_version: \"five\" is not a version: expected a number at byte 1, found \"f\"; versions read like 6.2, v6.0.1, 6.0.1-beta.2 or 6.0.1 (1234)"
        ),
        (
            "name: shop\nversion: 1\non_error: ignore",
            "m.yaml:3:11: error: on_error must be reject or continue (got \"ignore\")"
        ),
        (
            "name: shop\nversion: 1\nfiles: []",
            "m.yaml:3:1: error: unknown key \"files\" in the manifest; expected one of name, version, minimum_host_version, description, on_error, sources, context, log, allow"
        ),
        (
            "name: shop\nversion: 1\nsources: [mini_program, push]",
            "m.yaml:3:25: error: source \"push\" is standard already; list only the app's own sources"
        ),
        (
            "name: shop\nversion: 1\nsources: [Mini-Program]",
            "m.yaml:3:11: error: source \"Mini-Program\" must be lowercase letters, digits and \"_\", like mini_program"
        ),
        (
            "name: shop\nversion: 1\nsources: [car, car]",
            "m.yaml:3:16: error: source \"car\" is listed twice"
        ),
        ("name: shop\nversion: 1\nsources: car", "m.yaml:3:10: error: sources must be a list (\"- …\" items)"),
        (
            "name: shop\nversion: 1\nlog: { sample: 2 }",
            "m.yaml:3:6: error: log: sample must be from 0 to 1, not 2.0"
        ),
        (
            "name: shop\nversion: 1\ncontext: { app_version: version }\nlog: { context: [app_verison] }",
            "m.yaml:4:6: error: log: context lists \"app_verison\", which the manifest's context: schema does not declare; did you mean \"app_version\"?"
        ),
        (
            "name: shop\nversion: 1\nlog: maybe",
            "m.yaml:3:6: error: log must be off, or a mapping of sample, context, mask and hash"
        ),
        (
            "name: shop\nversion: 1\nallow:\n  - { code: group-near-policy, at: vip }",
            "m.yaml:4:5: error: each allowance needs code:, at: and reason: (missing reason) — the finding's code, what it is about, and why it is accepted"
        ),
        (
            "name: shop\nversion: 1\nallow:\n  - { code: group-near-policy, at: vip, reason: \" \" }",
            "m.yaml:4:49: error: allow: reason must not be empty"
        ),
        (
            "name: shop\nversion: 1\nallow:\n  - { code: group-near-policy, at: vip, reason: x, why: y }",
            "m.yaml:4:52: error: unknown key \"why\" in an allowance; expected one of code, at, reason"
        ),
        (
            "name: shop\nversion: 1\nallow:\n" + String(repeating: "  - { code: c, at: a, reason: r }\n", count: 101),
            "m.yaml:4:3: error: allow lists more than 100 allowances"
        ),
        ("", "m.yaml:1:1: error: the manifest is empty; it needs at least \"name:\" and \"version:\""),
        ("- a", "m.yaml:1:1: error: the manifest must be a mapping of keys to values"),
        (
            "name: &n shop\nversion: *n",
            "m.yaml:2:10: error: YAML aliases (\"*name\") are not allowed in a bundle manifest; write the value out (and quote text that starts with \"*\")"
        ),
    ])
    func explainsEachMistakeWhereItIs(_ text: String, _ expected: String) {
        let error = #expect(throws: BundleError.self) { try BundleManifest.load(text: text, file: "m.yaml") }
        #expect(error?.diagnostics.first?.description == expected)
    }

    @Test func comparesVersionsOnlyOfOneKind() throws {
        #expect(BundleVersion("13")?.isNewer(than: .integer(12)) == true)
        #expect(BundleVersion("1.4.0")?.isNewer(than: .semantic(SemanticVersion(1, 10))) == false)
        #expect(BundleVersion("2")?.isNewer(than: .semantic(SemanticVersion(1))) == nil)
    }

    @Test func checksTheHostVersion() {
        let manifest = BundleManifest(name: "a", version: .integer(1), minimumHostVersion: SemanticVersion(5, 2))
        #expect(manifest.supports(hostVersion: SemanticVersion(5, 10)))
        #expect(manifest.supports(hostVersion: SemanticVersion(5, 2)))
        #expect(!manifest.supports(hostVersion: SemanticVersion(5, 1, 9)))
        #expect(!manifest.supports(hostVersion: SemanticVersion("5.2.0-beta.1")!))
    }
}
