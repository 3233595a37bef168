public import JunctionCore

/// What a bundle declared while it loaded: its redirects, interceptors, group policies
/// and fallbacks, in declaration order. Functions are named by their index in the
/// engine (``RuleEngine/evaluate(declared:arguments:)``); `location` is `"file.lua:12"`.
public struct RuleDeclarations: Sendable, Hashable {
    /// `redirect { from = PATTERN, to = TEMPLATE, when = fn?, keep_query = bool?, on_error = policy? }`
    public struct Redirect: Sendable, Hashable {
        /// The pattern of URLs to redirect.
        public var from: String
        /// The target, with `{param}` placeholders.
        public var to: String
        /// The condition function, if any.
        public var condition: Int?
        /// Whether the original query is carried over.
        public var keepQuery: Bool
        /// What a failing `when` does, when the redirect says; else the bundle's `on_error`.
        public var onError: RuleErrorPolicy?
        /// Where it was declared.
        public var location: String
    }

    /// Which routes an interceptor applies to.
    public enum Scope: Sendable, Hashable {
        /// `route = NAME`: the route of that name (``Route/name``).
        case route(String)
        /// `routes = { NAME, ... }`: the routes of those names.
        case routes([String])
        /// `pattern = PATTERN`: whatever route decides a URL the pattern matches.
        case pattern(String)
        /// `patterns = { PATTERN, ... }`: whatever route decides a URL one of them matches.
        case patterns([String])
        /// `all = true`
        case all
    }

    /// `interceptor { name, route | routes | pattern | patterns | all, priority, on_error, run }`
    public struct Interceptor: Sendable, Hashable {
        /// Its unique name.
        public var name: String
        /// Which routes it applies to.
        public var scope: Scope
        /// Higher runs first among interceptors of its kind.
        public var priority: Int
        /// Its own failure policy, else the bundle's.
        public var onError: RuleErrorPolicy?
        /// The function to run.
        public var function: Int
        /// Where it was declared.
        public var location: String
    }

    /// `group(name, fn)`
    public struct GroupPolicy: Sendable, Hashable {
        /// The group (from the route table's `groups`).
        public var name: String
        /// The function to run.
        public var function: Int
        /// Where it was declared.
        public var location: String
    }

    /// `fallback(fn)`
    public struct Fallback: Sendable, Hashable {
        /// The function to run.
        public var function: Int
        /// Where it was declared.
        public var location: String
    }

    /// Every redirect, in declaration order.
    public var redirects: [Redirect] = []
    /// Every interceptor, in declaration order.
    public var interceptors: [Interceptor] = []
    /// Every group policy, in declaration order.
    public var groups: [GroupPolicy] = []
    /// Every fallback, in declaration order.
    public var fallbacks: [Fallback] = []

    /// No declarations.
    package init() {}

    /// Reads the summary the sandbox makes when it seals a bundle.
    init(summary: RuleValue) {
        func list(_ key: String) -> [[String: RuleValue]] {
            guard case .table(let root) = summary else { return [] }
            switch root[key] {
            case .array(let items)?: return items.compactMap { if case .table(let fields) = $0 { fields } else { nil } }
            default: return []
            }
        }
        func text(_ fields: [String: RuleValue], _ key: String) -> String {
            if case .string(let value)? = fields[key] { value } else { "" }
        }
        func number(_ fields: [String: RuleValue], _ key: String) -> Int? {
            if case .int(let value)? = fields[key] { Int(value) } else { nil }
        }
        redirects = list("redirects").map {
            Redirect(
                from: text($0, "from"), to: text($0, "to"), condition: number($0, "when"),
                keepQuery: $0["keep_query"] == .bool(true), onError: RuleErrorPolicy(rawValue: text($0, "on_error")),
                location: text($0, "at"))
        }
        interceptors = list("interceptors").map { fields in
            func strings(_ key: String) -> [String]? {
                guard case .array(let items)? = fields[key] else { return nil }
                return items.compactMap { if case .string(let text) = $0 { text } else { nil } }
            }
            let scope: Scope =
                if case .string(let name)? = fields["route"] {
                    .route(name)
                } else if let names = strings("routes") {
                    .routes(names)
                } else if case .string(let pattern)? = fields["pattern"] {
                    .pattern(pattern)
                } else if let patterns = strings("patterns") {
                    .patterns(patterns)
                } else {
                    .all
                }
            return Interceptor(
                name: text(fields, "name"), scope: scope, priority: number(fields, "priority") ?? 0,
                onError: RuleErrorPolicy(rawValue: text(fields, "on_error")), function: number(fields, "run") ?? 0,
                location: text(fields, "at"))
        }
        groups = list("groups").map {
            GroupPolicy(name: text($0, "name"), function: number($0, "run") ?? 0, location: text($0, "at"))
        }
        fallbacks = list("fallbacks").map { Fallback(function: number($0, "run") ?? 0, location: text($0, "at")) }
    }
}
