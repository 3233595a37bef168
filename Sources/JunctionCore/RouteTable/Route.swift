/// A URL pattern that leads to a target, with what the app and the rules need to know
/// about it.
public struct Route: Sendable, Hashable {
    /// A unique name, used by rules, `back(to:)` and analytics (`user.profile`).
    public var name: String
    /// The pattern, as written: `myapp://user/:id`, `/settings(/:tab)`, `https://example.com/**`.
    public var pattern: String
    /// What the host opens: a page factory, task or dispatcher registered under this name.
    public var target: String
    /// Higher wins over any more specific route of lower priority; 0 by default.
    public var priority: Int
    /// Groups whose policies apply (`login`, `minor-protection`).
    public var groups: [String]
    /// Whether callers outside the app (push, links, H5) may open it.
    public var isExported: Bool
    /// What it is, for people.
    public var description: String?
    /// Declared parameters, path and query, in declaration order.
    public var parameters: [ParameterDeclaration]
    /// Declared result fields, for documentation and rule authors.
    public var returns: [ParameterDeclaration]
    /// Where the route was declared, when it came from a file.
    public var location: SourceLocation?
    /// Where its pattern was written, when it came from a file.
    public var patternLocation: SourceLocation?

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
    public init(
        name: String, pattern: String, target: String? = nil, priority: Int = 0,
        groups: [String] = [], isExported: Bool = false, description: String? = nil,
        parameters: [ParameterDeclaration] = [], returns: [ParameterDeclaration] = []
    ) {
        self.name = name
        self.pattern = pattern
        self.target = target ?? name
        self.priority = priority
        self.groups = groups
        self.isExported = isExported
        self.description = description
        self.parameters = parameters
        self.returns = returns
    }

    /// The declaration of `name`, if the route declares it.
    /// - Parameter name: A parameter name.
    /// - Returns: Its declaration, or `nil`.
    public func parameter(named name: String) -> ParameterDeclaration? {
        parameters.first { $0.name == name }
    }
}
