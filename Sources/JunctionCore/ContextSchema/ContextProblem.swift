/// One way a context snapshot differs from its bundle's ``ContextSchema``: a key the
/// schema does not declare, or a value that is not of the declared type.
///
/// Problems name keys and types, never values, so they can be reported as telemetry
/// without carrying what a user's context holds:
///
/// ```
/// user.id: expected int, found string
/// user_id: not declared in the context schema; did you mean "user.id"?
/// ```
public struct ContextProblem: Sendable, Hashable, CustomStringConvertible {
    /// What kind of problem it is. New kinds may be added: switch with a `default`.
    public struct Kind: Sendable, Hashable, CustomStringConvertible {
        private let code: String

        /// The snapshot has a key the schema does not declare.
        public static let undeclaredKey = Kind(code: "undeclared_key")
        /// The value is not of the declared type.
        public static let wrongType = Kind(code: "wrong_type")

        /// `undeclared_key`, `wrong_type`: stable names for telemetry.
        public var description: String { code }
    }

    /// What kind of problem it is.
    public var kind: Kind
    /// Where: the key's path as a rule reads it, `user.id`, with list items by their
    /// position from 1 as in Lua, `roles[2]`.
    public var path: String
    /// The declared type; `nil` for an undeclared key.
    public var expected: ContextType?
    /// What the value is: `string`, `int`, `number`, `bool`, `bytes`, `list` or `table`
    /// (the kind of value, not the value); for an undeclared key, the kind of its value.
    public var found: String
    /// For an undeclared key, the declared key it most likely meant, as a path.
    public var suggestion: String?

    /// Creates a problem.
    /// - Parameters:
    ///   - kind: What kind of problem.
    ///   - path: The key's path.
    ///   - expected: The declared type, if any.
    ///   - found: The kind of value found.
    ///   - suggestion: The declared key meant, if any.
    public init(_ kind: Kind, path: String, expected: ContextType?, found: String, suggestion: String? = nil) {
        self.kind = kind
        self.path = path
        self.expected = expected
        self.found = found
        self.suggestion = suggestion
    }

    /// `user.id: expected int, found string`, `app_version: expected version, found a
    /// string that is not one`, `user_id: not declared in the context schema; did you mean "user.id"?`.
    public var description: String {
        let path = ContextSchema.shown(self.path)
        guard let expected else {
            return "\(path): not declared in the context schema"
                + (suggestion.map { "; did you mean \"\(ContextSchema.shown($0))\"?" } ?? "")
        }
        if expected == .version, found == "string" {
            return "\(path): expected version, found a string that is not one"
        }
        return "\(path): expected \(expected.shortName), found \(found)"
    }
}
