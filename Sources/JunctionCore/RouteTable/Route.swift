/// A URL pattern that leads to a target, with what the app and the rules need to know
/// about it.
///
/// `Route` has value semantics; its fields live in one shared box, so handing a route to
/// every match costs one reference count, not one per field.
public struct Route: Sendable, Hashable {
    private struct Fields: Sendable, Hashable {
        var name, pattern, target: String
        var priority: Int
        var groups: [String]
        var isExported: Bool
        var description: String?
        var parameters, returns: [ParameterDeclaration]
        var location, patternLocation: SourceLocation?
        var meta: [String: RuleValue]
        var launchMode: LaunchMode = .standard
        var isParamsStrict = false
    }

    private var storage: CopyOnWrite<Fields>

    /// A unique name, used by rules, `back(to:)` and analytics (`user.profile`).
    public var name: String {
        get { storage.fields.name }
        set { storage.write { $0.name = newValue } }
    }
    /// The pattern, as written: `myapp://user/:id`, `/settings(/:tab)`, `https://example.com/**`.
    public var pattern: String {
        get { storage.fields.pattern }
        set { storage.write { $0.pattern = newValue } }
    }
    /// What the host opens: a page factory, task or dispatcher registered under this name.
    public var target: String {
        get { storage.fields.target }
        set { storage.write { $0.target = newValue } }
    }
    /// Higher wins over any more specific route of lower priority; 0 by default.
    public var priority: Int {
        get { storage.fields.priority }
        set { storage.write { $0.priority = newValue } }
    }
    /// Groups whose policies apply (`login`, `minor-protection`).
    public var groups: [String] {
        get { storage.fields.groups }
        set { storage.write { $0.groups = newValue } }
    }
    /// Whether callers outside the app (push, links, H5) may open it.
    public var isExported: Bool {
        get { storage.fields.isExported }
        set { storage.write { $0.isExported = newValue } }
    }
    /// What it is, for people.
    public var description: String? {
        get { storage.fields.description }
        set { storage.write { $0.description = newValue } }
    }
    /// Declared parameters, path and query, in declaration order.
    public var parameters: [ParameterDeclaration] {
        get { storage.fields.parameters }
        set { storage.write { $0.parameters = newValue } }
    }
    /// Declared result fields, for documentation and rule authors.
    public var returns: [ParameterDeclaration] {
        get { storage.fields.returns }
        set { storage.write { $0.returns = newValue } }
    }
    /// Where the route was declared, when it came from a file.
    public var location: SourceLocation? {
        get { storage.fields.location }
        set { storage.write { $0.location = newValue } }
    }
    /// Free-form data the route table gives rules (`req.route.meta`): `meta: { owner: growth }`.
    public var meta: [String: RuleValue] {
        get { storage.fields.meta }
        set { storage.write { $0.meta = newValue } }
    }

    /// Whether a request may carry only the parameters the route declares — its pattern's
    /// and its `params:` (`params_strict: true`); an undeclared one rejects the request
    /// (cause `undeclared_parameters`). `false` by default.
    public var isParamsStrict: Bool {
        get { storage.fields.isParamsStrict }
        set { storage.write { $0.isParamsStrict = newValue } }
    }

    /// What opening it does when a page of it is already on the stack (`launch:`);
    /// `standard` by default.
    public var launchMode: LaunchMode {
        get { storage.fields.launchMode }
        set { storage.write { $0.launchMode = newValue } }
    }

    /// Where its pattern was written, when it came from a file.
    public var patternLocation: SourceLocation? {
        get { storage.fields.patternLocation }
        set { storage.write { $0.patternLocation = newValue } }
    }

    /// Creates a route.
    /// - Parameters:
    ///   - name: A unique name.
    ///   - pattern: The URL pattern.
    ///   - target: The target's name; the route's name by default.
    ///   - priority: Precedence over specificity; 0 by default.
    ///   - groups: Policy groups.
    ///   - isExported: Whether outside callers may open it; `false` by default.
    ///   - description: What it is.
    ///   - parameters: Declared parameters.
    ///   - returns: Declared result fields.
    ///   - meta: Free-form data for rules (`req.route.meta`).
    ///   - launchMode: What opening it does when a page of it is on the stack.
    public init(
        name: String, pattern: String, target: String? = nil, priority: Int = 0,
        groups: [String] = [], isExported: Bool = false, description: String? = nil,
        parameters: [ParameterDeclaration] = [], returns: [ParameterDeclaration] = [],
        meta: [String: RuleValue] = [:], launchMode: LaunchMode = .standard
    ) {
        storage = CopyOnWrite(
            Fields(
                name: name, pattern: pattern, target: target ?? name, priority: priority, groups: groups,
                isExported: isExported, description: description, parameters: parameters, returns: returns,
                location: nil, patternLocation: nil, meta: meta, launchMode: launchMode))
    }

    /// The declaration of `name`, if the route declares it.
    /// - Parameter name: A parameter name.
    /// - Returns: Its declaration, or `nil`.
    public func parameter(named name: String) -> ParameterDeclaration? {
        parameters.first { $0.name == name }
    }

    /// Whether two routes are declared alike: every field equal.
    public static func == (lhs: Route, rhs: Route) -> Bool {
        lhs.storage.isIdentical(to: rhs.storage) || lhs.storage.fields == rhs.storage.fields
    }

    /// Hashes the fields that tell routes apart (name, pattern, target, priority); equal
    /// routes hash alike.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(name)
        hasher.combine(pattern)
        hasher.combine(target)
        hasher.combine(priority)
    }
}
