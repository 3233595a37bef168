import JunctionAuthoring
import Foundation
import Junction
import JunctionShipping
import JunctionArtifact
import JunctionCore
import JunctionLua

/// A small bundle `shop` and what the device side is tested with: keys, a policy, the
/// artifacts and pointers built from it in code, all at one fixed time.
enum ShippingFixture {
    /// The time every update starts at.
    static let now = Date(timeIntervalSince1970: 1_800_000_000)
    /// The publisher's key, in the app's keyring.
    static let key = try! SigningKey(seed: Array(repeating: 7, count: 32))
    /// A key the app does not trust.
    static let otherKey = try! SigningKey(seed: Array(repeating: 9, count: 32))
    /// The app's keyring.
    static let keyring = Keyring([key.publicKey])
    /// The app's invariants: home always opens; guests are gated before their orders.
    static let invariants = [
        AppInvariant("home always opens", open: "myapp://home", expect: .opens(route: "home")),
        AppInvariant(open: "myapp://orders/7", expect: .gated(to: "myapp://login")),
    ]
    /// The policy of an app of version 6.0.0.
    static let policy = AcceptancePolicy(
        keyring: keyring, hostVersion: SemanticVersion(6), channel: "stable", invariants: invariants)

    static let manifestYAML = """
        name: shop
        version: 1.4.0
        minimum_host_version: "5.0.0"

        """
    static let routesYAML = """
        options:
          dispatchedSchemes: [https]
        routes:
          - name: home
            pattern: myapp://home
            exported: true
          - name: login
            pattern: myapp://login
          - name: orders
            pattern: myapp://orders/:id
            groups: [login]
            params:
              id: { type: int, required: true }

        """
    /// The login policy: guests log in first; the old home page moved.
    static let policiesLua = """
        redirect { from = "myapp://start", to = "myapp://home" }

        group("login", function(req, ctx)
          if ctx.user == nil then
            return gate("myapp://login")
          end
        end)

        """
    static let testsYAML = """
        tests:
          - name: guests log in first
            open: myapp://orders/7
            expect:
              gate: myapp://login
          - name: members see their orders
            open: myapp://orders/7
            context: { user: { id: 1 } }
            expect:
              route: orders
              params: { id: 7 }

        """

    /// The bundle, loaded from a folder written for it (routes given extra lines when asked).
    static func loadBundle(extraRoutes: String = "") -> RuleBundle {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("junction-shop-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let files = [
            "manifest.yaml": manifestYAML, "routes.yaml": routesYAML + extraRoutes, "policies.lua": policiesLua,
            "tests/orders.yaml": testsYAML,
        ]
        try! FileManager.default.createDirectory(atPath: directory + "/tests", withIntermediateDirectories: true)
        for (name, text) in files { try! text.write(toFile: directory + "/" + name, atomically: true, encoding: .utf8) }
        return try! RuleBundle.load(directory: directory)
    }

    /// The members of a built bundle: path, kind and bytes.
    struct Members {
        var manifest: [UInt8]
        var routes: [UInt8]
        var tests: [UInt8]
        var lua: [String: [UInt8]]

        init(_ bundle: RuleBundle) {
            let parts = try! bundle.canonicalJSON()
            manifest = parts.manifest
            routes = parts.routes
            tests = parts.tests
            lua = Dictionary(uniqueKeysWithValues: bundle.sources.map { ($0.name, Array($0.text.utf8)) })
        }
    }

    /// The next bundle's members (the update tested).
    static let next = Members(loadBundle())
    /// The previous bundle's members: the same, with a route `legacy` only it has.
    static let previous = Members(
        loadBundle(
            extraRoutes: """
                  - name: legacy
                    pattern: myapp://legacy
                    exported: true

                """))

    /// An artifact of `members`, signed with `key`.
    static func artifact(
        _ members: Members = next, version: String = "1.4.0", created: Date = now.addingTimeInterval(-86_400),
        expires: Date = now.addingTimeInterval(30 * 86_400), minimumHostVersion: String? = "5.0.0",
        key: SigningKey = key
    ) -> [UInt8] {
        var builder = ArtifactBuilder(
            name: "shop", version: version, created: created, expires: expires, minimumHostVersion: minimumHostVersion)
        builder.add(path: "manifest.json", kind: .manifest, bytes: members.manifest)
        builder.add(path: "routes.json", kind: .routes, bytes: members.routes)
        builder.add(path: "tests.json", kind: .tests, bytes: members.tests)
        for (path, bytes) in members.lua { builder.add(path: path, kind: .lua, bytes: bytes) }
        return try! builder.build(signedWith: key)
    }

    /// A pointer announcing `artifact` under `seq`, signed with `key` (in its epoch).
    static func pointer(
        for artifact: [UInt8], seq: UInt64, channel: String = "stable", length: Int? = nil, sha256: String? = nil,
        created: Date = now.addingTimeInterval(-3_600), expires: Date = now.addingTimeInterval(7 * 86_400),
        pinEmbedded: Bool = false, key: SigningKey = key
    ) -> [UInt8] {
        let pointer = try! ChannelPointer(
            channel: channel, seq: seq, epoch: key.epoch, artifactSHA256: sha256 ?? hash(artifact),
            artifactLength: length ?? artifact.count, created: created, expires: expires, pinEmbedded: pinEmbedded,
            keyID: key.keyID)
        return try! pointer.signed(with: key)
    }

    /// The canonical JSON of a pointer's signed fields, signed with `key` whatever it says,
    /// as `{"signature":…,"signed":…}`: for pointers `ChannelPointer` would not write.
    static func pointer(signing signedText: String, with key: SigningKey = key) -> [UInt8] {
        let signature = key.signature(for: ArraySlice(ChannelPointer.signaturePrefix + Array(signedText.utf8)))
        return Array(#"{"signature":"\#(Data(signature).base64EncodedString())","signed":\#(signedText)}"#.utf8)
    }

    /// The signed part of a pointer file, as text.
    static func signedText(of pointer: [UInt8]) -> String {
        let text = String(decoding: pointer, as: UTF8.self)
        let start = text.range(of: #","signed":"#)!.upperBound
        return String(text[start..<text.index(before: text.endIndex)])
    }

    /// The lowercase hex SHA-256 of `bytes`.
    static func hash(_ bytes: [UInt8]) -> String {
        UpdateIdentity(seq: 0, artifact: bytes).artifactSHA256
    }
}
