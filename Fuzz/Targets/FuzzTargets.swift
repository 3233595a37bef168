/// Every fuzz target, by name: what `scripts/fuzz` runs and `JunctionFuzzTests` replays.
package enum FuzzTargets {
    /// The targets, in the order `scripts/fuzz --all` runs them.
    package static let all: [FuzzTarget] = [
        .uri, .routePattern, .routeRegex, .canonicalJSON, .yaml, .capabilities, .keyFile, .artifact, .pointer,
        .gzip, .corpusLine, .responseHeaders, .luaBridge, .luaPattern, .routeShard,
    ]

    /// The target called `name`.
    package static func named(_ name: String) -> FuzzTarget? {
        all.first { $0.name == name }
    }
}
