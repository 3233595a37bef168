/// The context keys a bundle's rules read, with their types: the manifest's `context:`.
///
/// ```yaml
/// context:
///   app_version: version
///   hour: int
///   user: { id: int, age: int }
///   flags: { native_live: bool }
/// ```
///
/// A schema says what a value is when it is present: every key may be absent (a guest
/// has no `user`), and `nil` is absence. A key it does not declare is a mistake — at
/// any depth, so `user_id` and `user.idd` are caught where `user.id` was meant. Rule
/// tests' `context:` and `junction eval --context` are typed and checked by it; an app
/// checks its snapshots with ``validate(_:)``, in debug builds or for telemetry —
/// never on the decision's path, which does not pay for it.
///
/// ```swift
/// let schema: ContextSchema = ["app_version": .version, "user": .table(["id": .int])]
/// for problem in schema.validate(snapshot) { log.warning("context \(problem)") }
/// ```
public struct ContextSchema: Sendable, Hashable, CustomStringConvertible, ExpressibleByDictionaryLiteral {
    /// One declared key and its type.
    public struct Field: Sendable, Hashable {
        /// The key, as rules write it after `ctx.`.
        public var name: String
        /// What its value is when present.
        public var type: ContextType

        /// A key of a type.
        /// - Parameters:
        ///   - name: The key.
        ///   - type: Its type.
        public init(_ name: String, _ type: ContextType) {
            self.name = name
            self.type = type
        }
    }

    /// How deep a manifest's schema may nest tables and lists: a downloaded file must
    /// not make loading or checking recurse without end.
    public static let maximumDepth = 8
    /// How many keys a manifest's schema may declare, at all depths together.
    public static let maximumKeys = 1_000
    /// The most problems ``validate(_:)`` reports; it stops looking after that many.
    public static let maximumProblems = 100

    /// The declared keys, in the order written.
    public let fields: [Field]
    private let positions: [String: Int]

    /// A schema of `fields`.
    /// - Parameter fields: The keys and their types; each key once.
    public init(_ fields: [Field]) {
        var positions: [String: Int] = [:]
        for (position, field) in fields.enumerated() {
            precondition(
                positions.updateValue(position, forKey: field.name) == nil, "\"\(field.name)\" is declared twice")
        }
        self.fields = fields
        self.positions = positions
    }

    /// A schema written as a literal: `["hour": .int, "user": .table(["id": .int])]`.
    /// - Parameter elements: The keys and their types, in order; each key once.
    public init(dictionaryLiteral elements: (String, ContextType)...) {
        self.init(elements.map { Field($0, $1) })
    }

    /// The type declared for `key`, or `nil` when the schema does not declare it.
    /// - Parameter key: A key of this table (no dots).
    public subscript(key: String) -> ContextType? {
        positions[key].map { fields[$0].type }
    }

    /// As the manifest writes it: `{ id: int, age: int }`.
    public var description: String {
        fields.isEmpty ? "{}" : "{ " + fields.map { "\($0.name): \($0.type)" }.joined(separator: ", ") + " }"
    }

    /// How many declared keys the "did you mean" of one validation or one file may
    /// compare undeclared keys with: each comparison costs up to 64 × 64 steps, and a
    /// hostile snapshot or file may hold many undeclared keys. Past it, problems carry no
    /// suggestion.
    package static let suggestionBudget = 1_000

    /// The declared key `name` most likely meant, as a path from the schema's root:
    /// among this table's keys and the dotted paths below them, so `user_id` finds
    /// `user.id`.
    /// - Parameters:
    ///   - name: The undeclared key.
    ///   - prefix: The path of this table (`user.`), empty at the root.
    ///   - budget: The comparisons left (``suggestionBudget``); this spends one per path.
    /// - Returns: The nearest declared path, or `nil` when none is near or the budget is spent.
    package func nearestKey(to name: String, prefix: String, budget: inout Int) -> String? {
        var paths: [String] = []
        func collect(_ schema: ContextSchema, _ path: String) {
            for field in schema.fields where paths.count <= budget {
                paths.append(path + field.name)
                if case .table(let inner) = field.type { collect(inner, path + field.name + ".") }
            }
        }
        collect(self, "")
        guard paths.count <= budget else {
            budget = 0
            return nil
        }
        budget -= paths.count
        return NearestName.nearest(to: name, among: paths).map { prefix + $0 }
    }

    /// What a message says of an undeclared key at `path` (`user.idd`): that it is not
    /// declared, and the declared key it most likely meant.
    package func undeclaredMessage(_ name: String, prefix: String, budget: inout Int) -> String {
        let suggestion = nearestKey(to: name, prefix: prefix, budget: &budget).map { "; did you mean \"\($0)\"?" }
        return "context key \"\(ContextSchema.shown(prefix + name))\" is not declared in the manifest's context:"
            + (suggestion ?? "; declare it there, or leave it out")
    }

    /// `text` as messages show it: at most 64 characters, so a hostile key or value
    /// cannot make a message as large as itself.
    package static func shown(_ text: String) -> String {
        text.prefix(64).endIndex == text.endIndex ? text : String(text.prefix(63)) + "…"
    }
}
