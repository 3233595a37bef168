/// A URL pattern that leads to a target, with what the app and the rules need to know
/// about it.
///
/// `Route` has value semantics; its fields live in one shared box, so handing a route to
/// every match costs one reference count, not one per field.
public struct Route: Sendable, Hashable {
    private final class Storage: Sendable {
        let name: String
        let pattern: String
        let target: String
        let priority: Int
        let groups: [String]
        let isExported: Bool
        let description: String?
        let parameters: [ParameterDeclaration]
        let returns: [ParameterDeclaration]
        let location: SourceLocation?
        let patternLocation: SourceLocation?
        let meta: [String: RuleValue]

        init(
            name: String, pattern: String, target: String, priority: Int, groups: [String], isExported: Bool,
            description: String?, parameters: [ParameterDeclaration], returns: [ParameterDeclaration],
            location: SourceLocation?, patternLocation: SourceLocation?, meta: [String: RuleValue]
        ) {
            self.name = name
            self.pattern = pattern
            self.target = target
            self.priority = priority
            self.groups = groups
            self.isExported = isExported
            self.description = description
            self.parameters = parameters
            self.returns = returns
            self.location = location
            self.patternLocation = patternLocation
            self.meta = meta
        }

        /// A copy with one field changed.
        func with<Value>(_ field: WritableKeyPath<Fields, Value>, _ value: Value) -> Storage {
            var fields = Fields(self)
            fields[keyPath: field] = value
            return fields.storage
        }
    }

    /// The fields as a plain value, for building a changed copy of the storage.
    private struct Fields {
        var name, pattern, target: String
        var priority: Int
        var groups: [String]
        var isExported: Bool
        var description: String?
        var parameters, returns: [ParameterDeclaration]
        var location, patternLocation: SourceLocation?
        var meta: [String: RuleValue]

        init(_ s: Storage) {
            (name, pattern, target, priority, groups, isExported) = (s.name, s.pattern, s.target, s.priority, s.groups, s.isExported)
            (description, parameters, returns, location, patternLocation) = (s.description, s.parameters, s.returns, s.location, s.patternLocation)
            meta = s.meta
        }

        var storage: Storage {
            Storage(name: name, pattern: pattern, target: target, priority: priority, groups: groups, isExported: isExported,
                    description: description, parameters: parameters, returns: returns,
                    location: location, patternLocation: patternLocation, meta: meta)
        }
    }

    private var storage: Storage

    /// A unique name, used by rules, `back(to:)` and analytics (`user.profile`).
    public var name: String {
        get { storage.name }
        set { storage = storage.with(\.name, newValue) }
    }
    /// The pattern, as written: `myapp://user/:id`, `/settings(/:tab)`, `https://example.com/**`.
    public var pattern: String {
        get { storage.pattern }
        set { storage = storage.with(\.pattern, newValue) }
    }
    /// What the host opens: a page factory, task or dispatcher registered under this name.
    public var target: String {
        get { storage.target }
        set { storage = storage.with(\.target, newValue) }
    }
    /// Higher wins over any more specific route of lower priority; 0 by default.
    public var priority: Int {
        get { storage.priority }
        set { storage = storage.with(\.priority, newValue) }
    }
    /// Groups whose policies apply (`login`, `minor-protection`).
    public var groups: [String] {
        get { storage.groups }
        set { storage = storage.with(\.groups, newValue) }
    }
    /// Whether callers outside the app (push, links, H5) may open it.
    public var isExported: Bool {
        get { storage.isExported }
        set { storage = storage.with(\.isExported, newValue) }
    }
    /// What it is, for people.
    public var description: String? {
        get { storage.description }
        set { storage = storage.with(\.description, newValue) }
    }
    /// Declared parameters, path and query, in declaration order.
    public var parameters: [ParameterDeclaration] {
        get { storage.parameters }
        set { storage = storage.with(\.parameters, newValue) }
    }
    /// Declared result fields, for documentation and rule authors.
    public var returns: [ParameterDeclaration] {
        get { storage.returns }
        set { storage = storage.with(\.returns, newValue) }
    }
    /// Where the route was declared, when it came from a file.
    public var location: SourceLocation? {
        get { storage.location }
        set { storage = storage.with(\.location, newValue) }
    }
    /// Free-form data the route table gives rules (`req.route.meta`): `meta: { owner: growth }`.
    public var meta: [String: RuleValue] {
        get { storage.meta }
        set { storage = storage.with(\.meta, newValue) }
    }

    /// Where its pattern was written, when it came from a file.
    public var patternLocation: SourceLocation? {
        get { storage.patternLocation }
        set { storage = storage.with(\.patternLocation, newValue) }
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
    public init(
        name: String, pattern: String, target: String? = nil, priority: Int = 0,
        groups: [String] = [], isExported: Bool = false, description: String? = nil,
        parameters: [ParameterDeclaration] = [], returns: [ParameterDeclaration] = [],
        meta: [String: RuleValue] = [:]
    ) {
        storage = Storage(
            name: name, pattern: pattern, target: target ?? name, priority: priority, groups: groups,
            isExported: isExported, description: description, parameters: parameters, returns: returns,
            location: nil, patternLocation: nil, meta: meta)
    }

    /// The declaration of `name`, if the route declares it.
    /// - Parameter name: A parameter name.
    /// - Returns: Its declaration, or `nil`.
    public func parameter(named name: String) -> ParameterDeclaration? {
        parameters.first { $0.name == name }
    }

    public static func == (lhs: Route, rhs: Route) -> Bool {
        if lhs.storage === rhs.storage { return true }
        let (a, b) = (lhs.storage, rhs.storage)
        return a.name == b.name && a.pattern == b.pattern && a.target == b.target && a.priority == b.priority
            && a.groups == b.groups && a.isExported == b.isExported && a.description == b.description
            && a.parameters == b.parameters && a.returns == b.returns && a.location == b.location
            && a.patternLocation == b.patternLocation && a.meta == b.meta
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(name)
        hasher.combine(pattern)
        hasher.combine(target)
        hasher.combine(priority)
    }
}
