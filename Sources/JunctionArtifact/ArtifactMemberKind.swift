/// What an artifact member holds; an open set so new kinds can be added.
public struct ArtifactMemberKind: Sendable, Hashable, CustomStringConvertible {
    /// The kind's name in the header (`manifest`).
    public let name: String

    private init(_ name: String) {
        self.name = name
    }

    /// The kind named `name`, or `nil` when it is not a known kind.
    public init?(named name: String) {
        guard let kind = Self.all.first(where: { $0.name == name }) else { return nil }
        self = kind
    }

    /// The name.
    public var description: String { name }

    /// The manifest, compiled to canonical JSON: `manifest.json`.
    public static let manifest = ArtifactMemberKind("manifest")

    /// The route table, compiled to canonical JSON: `routes.json`.
    public static let routes = ArtifactMemberKind("routes")

    /// The rule tests, compiled to canonical JSON: `tests.json`.
    public static let tests = ArtifactMemberKind("tests")

    /// A Lua source file at the top level: `name.lua`.
    public static let lua = ArtifactMemberKind("lua")

    /// Every known kind.
    public static let all: [ArtifactMemberKind] = [.manifest, .routes, .tests, .lua]

    /// The one path a kind with a fixed path must have, or `nil` for `lua`.
    var fixedPath: String? {
        switch name {
        case "manifest": "manifest.json"
        case "routes": "routes.json"
        case "tests": "tests.json"
        default: nil
        }
    }
}
