/// A bundle's `manifest.yaml` (or `.json`): who it is, which version, which hosts it
/// needs, and how its rules fail.
///
/// ```yaml
/// name: example-shop
/// version: 12                  # a monotonic integer, or a semantic version: 1.4.0
/// minimum_host_version: 5.0.0  # hosts older than this refuse the bundle
/// description: Routing policy of the example shop.
/// on_error: reject             # reject (default) | continue
/// sources: [mini_program]      # request sources beyond the standard ones
/// context:                     # the context keys rules read, and their types
///   app_version: version
///   user: { id: int, age: int }
/// ```
public struct BundleManifest: Sendable, Hashable {
    /// The bundle's name: letters, digits, `.`, `_` and `-`.
    public var name: String
    /// Its version; a newer bundle of the same name has a greater one.
    public var version: BundleVersion
    /// The oldest host (app) version that may run it, if any.
    public var minimumHostVersion: SemanticVersion?
    /// What it is, for people.
    public var description: String?
    /// What a failing rule does unless the rule says otherwise; `.reject` by default.
    public var onError: RuleErrorPolicy
    /// The request sources the app uses beyond ``RequestSource/standard``
    /// (`sources: [mini_program]`), in the order the manifest lists them.
    public var sources: [RequestSource] = []

    /// Every source a request of this bundle may come from: the standard ones, then the
    /// declared ones. Tests, `junction eval --source` and rules comparing `req.source`
    /// with a literal are checked against it.
    public var knownSources: [RequestSource] { RequestSource.standard + sources }
    /// The context keys the rules read and their types (`context:`), or `nil` when the
    /// manifest declares none: then nothing about a context is checked.
    public var context: ContextSchema?
    /// What devices may log of the bundle's decisions (the manifest's `log:`).
    public var log: DecisionLogPolicy = .default
    /// The findings of `junction check` its author accepts on purpose (``FindingAllowance``);
    /// for the tools, never read by devices.
    public var allowances: [FindingAllowance] = []

    /// Why `source` is not a source of this bundle — neither standard nor declared in
    /// ``sources`` — with the nearest known one; `nil` when it is known.
    /// - Parameter source: A request source as written in a test or on the command line.
    /// - Returns: The message, or `nil`.
    package func unknownSourceMessage(_ source: String) -> String? {
        let known = knownSources.map(\.rawValue)
        guard !known.contains(source) else { return nil }
        let shown = ContextSchema.shown(source)
        let list = "(\(known.joined(separator: ", ")))"
        guard let near = NearestName.nearest(to: source, among: known) else {
            return
                "source \"\(shown)\" is neither standard nor declared in the manifest's sources: \(list); declare it there if the app uses it"
        }
        return
            "source \"\(shown)\" is neither standard nor declared in the manifest's sources: \(list); did you mean \"\(near)\"?"
    }

    /// Creates a manifest.
    /// - Parameters:
    ///   - name: The bundle's name.
    ///   - version: Its version.
    ///   - minimumHostVersion: The oldest host that may run it.
    ///   - description: What it is.
    ///   - onError: The default failure policy of its rules.
    package init(
        name: String, version: BundleVersion, minimumHostVersion: SemanticVersion? = nil,
        description: String? = nil, onError: RuleErrorPolicy = .reject
    ) {
        self.name = name
        self.version = version
        self.minimumHostVersion = minimumHostVersion
        self.description = description
        self.onError = onError
    }

    /// Whether a host of `hostVersion` may run the bundle.
    /// - Parameter hostVersion: The app's version.
    /// - Returns: Whether it is at least ``minimumHostVersion``.
    package func supports(hostVersion: SemanticVersion) -> Bool {
        minimumHostVersion.map { !(hostVersion < $0) } ?? true
    }
}
