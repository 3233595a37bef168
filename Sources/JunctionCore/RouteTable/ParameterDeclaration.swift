/// What a route declares about one parameter it takes (or returns).
public struct ParameterDeclaration: Sendable, Hashable {
    /// The parameter's name: a path parameter (`:id`) or a query item.
    public var name: String
    /// The type its text must convert to.
    public var type: ParameterType
    /// Whether a caller must supply it.
    public var isRequired: Bool
    /// The value used when the caller supplies none.
    public var defaultValue: ParameterValue?
    /// What it means, for people.
    public var description: String?

    /// Declares a parameter.
    /// - Parameters:
    ///   - name: The parameter's name.
    ///   - type: Its type; `.string` by default.
    ///   - isRequired: Whether a caller must supply it; `false` by default.
    ///   - defaultValue: The value used when none is supplied; must have `type`.
    ///   - description: What it means.
    public init(
        _ name: String, type: ParameterType = .string, isRequired: Bool = false,
        defaultValue: ParameterValue? = nil, description: String? = nil
    ) {
        self.name = name
        self.type = type
        self.isRequired = isRequired
        self.defaultValue = defaultValue
        self.description = description
    }
}
