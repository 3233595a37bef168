/// The compiled matcher: one trie per (scheme, origin host) namespace, flattened into
/// arrays, immutable once built. A class, so a search captures one reference rather
/// than copying six arrays.
final class RouteTrie: Sendable {
    struct Node: Sendable {
        var hasConstants = false
        var constrained: Int32 = -1
        var parameter: Int32 = -1
        var wildcard: Int32 = -1
        /// Entries whose pattern ends at this node.
        var terminalStart: Int32 = 0
        var terminalEnd: Int32 = 0
        /// Entries whose pattern continues with `**` from this node.
        var catchAllStart: Int32 = 0
        var catchAllEnd: Int32 = 0
        /// The highest priority of any entry in this subtree, for pruning.
        var maxPriority = Int.min
    }

    /// A constraint on one segment, checked when a pattern's end is reached.
    enum Constraint: Sendable {
        /// The regex at this index of ``regexes``.
        case regex(Int32)
        case type(ParameterType)
    }

    /// One expansion of one route's pattern.
    struct Entry: Sendable {
        var route: Int32
        var priority: Int
        var checks: [(segment: Int32, constraint: Constraint)]
        var captures: [(name: String, segment: Int32)]
        /// The segment where `**` starts, or -1.
        var catchAllFrom: Int32
    }

    /// Where a namespace's trie starts.
    struct Namespace: Sendable {
        var scheme: [UInt8]?
        var host: [UInt8]?
        var root: Int32
    }

    let nodes: [Node]
    let entries: [Entry]
    let constants: ConstantIndex
    let namespaces: [Namespace]
    /// The compiled regexes, each text once.
    let regexes: [RouteRegex]
    let caseSensitive: Bool

    init(
        nodes: [Node], entries: [Entry], constants: ConstantIndex, namespaces: [Namespace],
        regexes: [RouteRegex], caseSensitive: Bool
    ) {
        self.nodes = nodes
        self.entries = entries
        self.constants = constants
        self.namespaces = namespaces
        self.regexes = regexes
        self.caseSensitive = caseSensitive
    }
}
