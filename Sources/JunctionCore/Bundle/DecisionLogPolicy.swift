/// What a bundle lets devices log of its decisions, and how much: the manifest's `log:`.
///
/// ```yaml
/// log:
///   sample: 0.1                      # the share of opens kept; refusals, gates, failures and unmatched URLs always
///   context: [app_version, user.id]  # the context keys that may leave the device
///   mask: [phone]                    # query parameters and params never logged (besides credentials)
///   hash: [campaign_user]            # logged as "sha256:<16 hex digits>" of the value
/// ```
///
/// `log: off` is the kill switch: nothing is logged under the bundle. What is not declared
/// stays on the device: no context key but those listed, and the values of query
/// parameters and params named like credentials (``isCredential(_:)``) never, whatever the
/// lists say. A bundle without `log:` logs every decision with no context.
public struct DecisionLogPolicy: Sendable, Hashable {
    /// The most names one list may hold.
    public static let maximumNames = 100
    /// The most characters of one name.
    public static let maximumNameLength = 128

    /// Whether decisions are logged at all (`log: off` is `false`).
    public var isEnabled: Bool
    /// The share of opens (and answers and hand-overs) kept, from 0 to 1; every refusal,
    /// gate, failure and unmatched URL is kept.
    public var sample: Double
    /// The context keys that may be logged, as dotted paths (`user.id`).
    public var context: [String]
    /// Query parameter and param names whose values are never logged.
    public var masked: [String]
    /// Query parameter and param names whose values are logged as a hash.
    public var hashed: [String]

    /// A policy.
    /// - Parameters:
    ///   - isEnabled: Whether decisions are logged.
    ///   - sample: The share of opens kept.
    ///   - context: The loggable context keys.
    ///   - masked: Names never logged.
    ///   - hashed: Names logged as a hash.
    public init(
        isEnabled: Bool = true, sample: Double = 1, context: [String] = [], masked: [String] = [],
        hashed: [String] = []
    ) {
        self.isEnabled = isEnabled
        self.sample = sample
        self.context = context
        self.masked = masked
        self.hashed = hashed
    }

    /// The policy of a bundle that says nothing: every decision, no context.
    public static let `default` = DecisionLogPolicy()
    /// The kill switch.
    public static let off = DecisionLogPolicy(isEnabled: false, sample: 0)

    /// Whether `name` (of a query parameter or a param) reads like a credential, whose
    /// value never leaves the device: it contains `token`, `secret`, `passw`, `auth` or
    /// `session`, or is one of `key`, `apikey`, `api_key`, `sid`, `sig`, `signature`,
    /// `code`, `otp`, `pin`, `ticket`, `jwt`, `cookie` — case and `-`/`_` aside.
    public static func isCredential(_ name: String) -> Bool {
        let folded = String(name.lowercased().map { $0 == "-" ? "_" : $0 })
        if ["token", "secret", "passw", "auth", "session"].contains(where: folded.contains) { return true }
        return [
            "key", "apikey", "api_key", "sid", "sig", "signature", "code", "otp", "pin", "ticket", "jwt", "cookie",
        ].contains(folded)
    }

    /// Why the policy cannot be a bundle's, or `nil`: a sample outside 0–1, a list too long,
    /// a name empty or too long, a context key the schema does not declare.
    /// - Parameter schema: The manifest's context schema, when it has one.
    public func problem(schema: ContextSchema?) -> String? {
        guard sample >= 0, sample <= 1 else { return "log: sample must be from 0 to 1, not \(sample)" }
        for (list, names) in [("context", context), ("mask", masked), ("hash", hashed)] {
            guard names.count <= Self.maximumNames else {
                return "log: \(list) lists \(names.count) names, more than \(Self.maximumNames)"
            }
            for name in names where name.isEmpty || name.count > Self.maximumNameLength {
                return "log: \(list) has a name that is empty or longer than \(Self.maximumNameLength) characters"
            }
        }
        guard let schema else { return nil }
        for path in context {
            var level = schema
            let keys = path.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
            for (depth, key) in keys.enumerated() {
                guard let type = level[key] else {
                    return "log: context lists \"\(path)\", which the manifest's context: schema does not declare"
                        + NearestName.suggestion(for: key, among: level.fields.map(\.name))
                }
                if depth < keys.count - 1 {
                    guard case .table(let nested) = type else {
                        return "log: context lists \"\(path)\", but \(keys[...depth].joined(separator: ".")) is "
                            + "\(type), which has no fields"
                    }
                    level = nested
                }
            }
        }
        return nil
    }
}
