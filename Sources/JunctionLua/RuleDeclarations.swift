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
}
