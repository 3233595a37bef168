/// A finding of `junction check` that a bundle's author accepts on purpose, written in the
/// manifest's `allow:` list, where a reviewer sees it:
///
/// ```yaml
/// allow:
///   - code: redirect-leaves-policies
///     at: "myapp://live/:id"
///     reason: the H5 room runs its own anti-addiction check (JIRA-123)
/// ```
///
/// Only findings that weaken a policy can be accepted (`redirect-leaves-policies`,
/// `group-near-policy`): `bundle build` refuses them otherwise. `at` names what the
/// finding is about — a declared redirect's `from`, an interceptor's name, a group's name
/// — and `check` lists every finding an allowance accepts, and warns of one that accepts
/// nothing. Devices never read it.
public struct FindingAllowance: Sendable, Hashable {
    /// The most allowances a manifest may list.
    public static let maximumCount = 100
    /// The most characters of a code, subject or reason.
    public static let maximumLength = 512

    /// The finding's code, `redirect-leaves-policies`.
    public var code: String
    /// What the finding is about: a declared redirect's `from` pattern, an interceptor's
    /// name, a group's name.
    public var subject: String
    /// Why it is accepted, for the reviewer; never empty.
    public var reason: String
    /// Where the manifest's YAML lists it; `nil` when read from canonical JSON.
    public var location: SourceLocation?

    /// An allowance.
    /// - Parameters:
    ///   - code: The finding's code.
    ///   - subject: What the finding is about.
    ///   - reason: Why it is accepted.
    ///   - location: Where the manifest lists it.
    public init(code: String, subject: String, reason: String, location: SourceLocation? = nil) {
        self.code = code
        self.subject = subject
        self.reason = reason
        self.location = location
    }

    /// Two allowances are equal when they accept the same finding for the same reason,
    /// wherever they are written.
    public static func == (a: FindingAllowance, b: FindingAllowance) -> Bool {
        a.code == b.code && a.subject == b.subject && a.reason == b.reason
    }

    /// Hashes what ``==`` compares.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(code)
        hasher.combine(subject)
        hasher.combine(reason)
    }

    /// Why `text` cannot be the `field` of an allowance, or `nil`.
    package static func problem(with text: String, field: String) -> String? {
        if text.allSatisfy(\.isWhitespace) { return "\(field) must not be empty" }
        if text.count > maximumLength { return "\(field) is longer than \(maximumLength) characters" }
        return nil
    }
}
