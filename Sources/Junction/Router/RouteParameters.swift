/// The parameters a page factory or task receives: rule values typed by the route's
/// declarations, and the caller's values that are not rule values (model objects for
/// native targets), which rules never see.
///
/// ```swift
/// router.register(page: "ProfilePage") { request in
///     ProfilePage(id: request.params.int("id")!, tab: request.params.string("tab") ?? "posts",
///                 preview: request.params.object("preview", as: UserPreview.self))
/// }
/// ```
public struct RouteParameters: Sendable, CustomStringConvertible {
    /// The values rules saw, later sources winning: path parameters, declared query
    /// parameters and defaults, the caller's, then rules' rewrites — each declared one
    /// converted to its declared type.
    public let values: [String: RuleValue]
    /// The caller's parameters that do not convert to rule values, as given.
    public let objects: [String: any Sendable]

    /// Parameters.
    /// - Parameters:
    ///   - values: Rule values by name.
    ///   - objects: Other values by name.
    public init(values: [String: RuleValue] = [:], objects: [String: any Sendable] = [:]) {
        self.values = values
        self.objects = objects
    }

    /// A rule value by name.
    public subscript(name: String) -> RuleValue? { values[name] }

    /// The parameter as text, when it is a string.
    /// - Parameter name: Its name.
    /// - Returns: The text, or `nil`.
    public func string(_ name: String) -> String? {
        if case .string(let text)? = values[name] { return text }
        return nil
    }

    /// The parameter as an integer, when it is one.
    /// - Parameter name: Its name.
    /// - Returns: The integer, or `nil`.
    public func int(_ name: String) -> Int? {
        if case .int(let number)? = values[name] { return Int(exactly: number) }
        return nil
    }

    /// The parameter as a number, when it is an integer or a float.
    /// - Parameter name: Its name.
    /// - Returns: The number, or `nil`.
    public func double(_ name: String) -> Double? {
        switch values[name] {
        case .double(let number)?: return number
        case .int(let number)?: return Double(number)
        default: return nil
        }
    }

    /// The parameter as a truth value, when it is one.
    /// - Parameter name: Its name.
    /// - Returns: The flag, or `nil`.
    public func bool(_ name: String) -> Bool? {
        if case .bool(let flag)? = values[name] { return flag }
        return nil
    }

    /// A caller's object by name, when it has type `T`.
    /// - Parameters:
    ///   - name: Its name.
    ///   - type: The type expected.
    /// - Returns: The object, or `nil`.
    public func object<T>(_ name: String, as type: T.Type = T.self) -> T? {
        objects[name] as? T
    }

    /// `{"id":7}` and the names of the objects, sorted.
    public var description: String {
        var text = values.isEmpty ? "" : RuleValue.table(values).compactDescription
        if !objects.isEmpty {
            text += (text.isEmpty ? "" : " ") + "objects: " + objects.keys.sorted().joined(separator: ", ")
        }
        return text
    }
}
