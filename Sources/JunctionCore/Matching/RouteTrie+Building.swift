extension RouteTrie {
    /// A node while the trie is growing; its constant edges are in one table for all nodes.
    private struct GrowingNode {
        var parent: Int32
        var hasConstants = false
        var constrained: Int32 = -1
        var parameter: Int32 = -1
        var wildcard: Int32 = -1
        /// How many entries end here, and how many continue with `**` from here.
        var terminalCount: Int32 = 0
        var catchAllCount: Int32 = 0
    }

    /// Compiles validated routes (in registration order) with their parsed patterns;
    /// `indices`, when given, are the routes' places in their table (a shard of it), in
    /// ascending order, else their places in `routes`.
    convenience init(routes: [Route], patterns: [RoutePattern], indices: [Int32]? = nil, caseSensitive: Bool) {
        var growing: [GrowingNode] = []
        var namespaces: [Namespace] = []
        var entries: [Entry] = []
        /// For each entry, the node it ends at.
        var entryNodes: [Int32] = []
        var constants: [TrieEdgeKey: Int32] = [:]
        var regexes: [RouteRegex] = []
        var regexIndex: [String: Int32] = [:]
        growing.reserveCapacity(routes.count * 2)
        entries.reserveCapacity(routes.count)
        entryNodes.reserveCapacity(routes.count)
        constants.reserveCapacity(routes.count * 2)

        func newNode(parent: Int32) -> Int32 {
            growing.append(GrowingNode(parent: parent))
            return Int32(growing.count - 1)
        }
        // Routes come in runs of one namespace: the last one found is asked first.
        var lastNamespace: (scheme: String?, host: String?, root: Int32)?
        func root(scheme: String?, host: String?) -> Int32 {
            if let last = lastNamespace, last.scheme == scheme, last.host == host { return last.root }
            let schemeBytes = scheme.map { Array($0.utf8) }
            let hostBytes = host.map { Array($0.utf8) }
            let node: Int32
            if let existing = namespaces.first(where: { $0.scheme == schemeBytes && $0.host == hostBytes }) {
                node = existing.root
            } else {
                node = newNode(parent: -1)
                namespaces.append(Namespace(scheme: schemeBytes, host: hostBytes, root: node))
            }
            lastNamespace = (scheme, host, node)
            return node
        }

        for (routeIndex, (route, pattern)) in zip(routes, patterns).enumerated() {
            let start = root(scheme: pattern.scheme, host: pattern.host)
            for expansion in pattern.expansions {
                var node = start
                var entry = Entry(
                    route: indices?[routeIndex] ?? Int32(routeIndex), priority: route.priority, checks: [],
                    captures: [], catchAllFrom: -1)
                for (index, segment) in expansion.enumerated() {
                    let position = Int32(index)
                    switch segment {
                    case .constant(let text):
                        let key = TrieEdgeKey(parent: node, text: caseSensitive ? text : text.lowercased())
                        if let child = constants[key] {
                            node = child
                        } else {
                            let child = newNode(parent: node)
                            constants[key] = child
                            growing[Int(node)].hasConstants = true
                            node = child
                        }
                    case .parameter(let name, let regex):
                        let type = route.parameter(named: name)?.type ?? .string
                        if let regex {
                            let index: Int32
                            if let known = regexIndex[regex] {
                                index = known
                            } else {
                                // The pattern parser compiled it once already: it cannot fail here.
                                guard let compiled = try? RouteRegex(regex) else {
                                    preconditionFailure(
                                        "regex \"\(regex)\" passed the pattern parser but does not compile")
                                }
                                index = Int32(regexes.count)
                                regexes.append(compiled)
                                regexIndex[regex] = index
                            }
                            entry.checks.append((position, .regex(index)))
                        }
                        if type != .string { entry.checks.append((position, .type(type))) }
                        entry.captures.append((name, position))
                        let constrained = regex != nil || type != .string
                        let existing = constrained ? growing[Int(node)].constrained : growing[Int(node)].parameter
                        let child = existing >= 0 ? existing : newNode(parent: node)
                        if constrained {
                            growing[Int(node)].constrained = child
                        } else {
                            growing[Int(node)].parameter = child
                        }
                        node = child
                    case .wildcard:
                        let child =
                            growing[Int(node)].wildcard >= 0 ? growing[Int(node)].wildcard : newNode(parent: node)
                        growing[Int(node)].wildcard = child
                        node = child
                    case .catchAll:
                        entry.catchAllFrom = position
                    }
                }
                entries.append(entry)
                entryNodes.append(node)
                if entry.catchAllFrom >= 0 {
                    growing[Int(node)].catchAllCount += 1
                } else {
                    growing[Int(node)].terminalCount += 1
                }
            }
        }

        // Flatten: entries regrouped so each node's terminals and catch-alls are contiguous,
        // in registration order within each (a counting sort: no list per node).
        var nodes: [Node] = []
        nodes.reserveCapacity(growing.count)
        var nextTerminal: [Int32] = []
        var nextCatchAll: [Int32] = []
        nextTerminal.reserveCapacity(growing.count)
        nextCatchAll.reserveCapacity(growing.count)
        var position: Int32 = 0
        for node in growing {
            var flat = Node()
            flat.hasConstants = node.hasConstants
            flat.constrained = node.constrained
            flat.parameter = node.parameter
            flat.wildcard = node.wildcard
            flat.terminalStart = position
            flat.terminalEnd = position + node.terminalCount
            flat.catchAllStart = flat.terminalEnd
            flat.catchAllEnd = flat.catchAllStart + node.catchAllCount
            nextTerminal.append(flat.terminalStart)
            nextCatchAll.append(flat.catchAllStart)
            position = flat.catchAllEnd
            nodes.append(flat)
        }
        var slots = [Int](repeating: 0, count: entries.count)
        for (index, entry) in entries.enumerated() {
            let node = Int(entryNodes[index])
            let slot: Int32
            if entry.catchAllFrom >= 0 {
                slot = nextCatchAll[node]
                nextCatchAll[node] += 1
            } else {
                slot = nextTerminal[node]
                nextTerminal[node] += 1
            }
            slots[Int(slot)] = index
            nodes[node].maxPriority = max(nodes[node].maxPriority, entry.priority)
        }
        let flatEntries = slots.map { entries[$0] }
        // Children always have higher indices than parents: walking backwards, a node's
        // subtree is complete when it is reached, and it passes its maximum up.
        for index in nodes.indices.reversed() {
            let parent = growing[index].parent
            if parent >= 0 {
                nodes[Int(parent)].maxPriority = max(nodes[Int(parent)].maxPriority, nodes[index].maxPriority)
            }
        }
        let edges = constants.map { (parent: $0.key.parent, key: Array($0.key.text.utf8), child: $0.value) }
        self.init(
            nodes: nodes, entries: flatEntries, constants: ConstantIndex(edges: edges),
            namespaces: namespaces, regexes: regexes, caseSensitive: caseSensitive
        )
    }
}
