extension RouteTrie {
    /// A node while the trie is growing.
    private struct GrowingNode {
        var constants: [[UInt8]: Int32] = [:]
        var constrained: Int32 = -1
        var parameter: Int32 = -1
        var wildcard: Int32 = -1
        var terminals: [Int32] = []
        var catchAlls: [Int32] = []
    }

    /// Compiles validated routes (in registration order) with their parsed patterns.
    convenience init(routes: [(route: Route, pattern: RoutePattern)], caseSensitive: Bool) {
        var growing: [GrowingNode] = []
        var namespaces: [Namespace] = []
        var entries: [Entry] = []
        var regexes: [String: CompiledRegex] = [:]

        func newNode() -> Int32 {
            growing.append(GrowingNode())
            return Int32(growing.count - 1)
        }
        func root(scheme: String?, host: String?) -> Int32 {
            let schemeBytes = scheme.map { Array($0.utf8) }
            let hostBytes = host.map { Array($0.utf8) }
            if let existing = namespaces.first(where: { $0.scheme == schemeBytes && $0.host == hostBytes }) {
                return existing.root
            }
            let node = newNode()
            namespaces.append(Namespace(scheme: schemeBytes, host: hostBytes, root: node))
            return node
        }

        for (routeIndex, (route, pattern)) in routes.enumerated() {
            let start = root(scheme: pattern.scheme, host: pattern.host)
            for expansion in pattern.expansions {
                var node = start
                var entry = Entry(route: Int32(routeIndex), priority: route.priority, checks: [], captures: [], catchAllFrom: -1)
                for (index, segment) in expansion.enumerated() {
                    let position = Int32(index)
                    switch segment {
                    case .constant(let text):
                        let key = Array((caseSensitive ? text : text.lowercased()).utf8)
                        if let child = growing[Int(node)].constants[key] {
                            node = child
                        } else {
                            let child = newNode()
                            growing[Int(node)].constants[key] = child
                            node = child
                        }
                    case .parameter(let name, let regex):
                        let type = route.parameter(named: name)?.type ?? .string
                        if let regex {
                            entry.checks.append((position, .regex(regex)))
                            if regexes[regex] == nil, let compiled = try? Regex(regex) {
                                regexes[regex] = CompiledRegex(regex: compiled)
                            }
                        }
                        if type != .string { entry.checks.append((position, .type(type))) }
                        entry.captures.append((name, position))
                        let constrained = regex != nil || type != .string
                        let existing = constrained ? growing[Int(node)].constrained : growing[Int(node)].parameter
                        let child = existing >= 0 ? existing : newNode()
                        if constrained { growing[Int(node)].constrained = child } else { growing[Int(node)].parameter = child }
                        node = child
                    case .wildcard:
                        let child = growing[Int(node)].wildcard >= 0 ? growing[Int(node)].wildcard : newNode()
                        growing[Int(node)].wildcard = child
                        node = child
                    case .catchAll:
                        entry.catchAllFrom = position
                    }
                }
                entries.append(entry)
                let entryIndex = Int32(entries.count - 1)
                if entry.catchAllFrom >= 0 {
                    growing[Int(node)].catchAlls.append(entryIndex)
                } else {
                    growing[Int(node)].terminals.append(entryIndex)
                }
            }
        }

        // Flatten: entries regrouped so each node's terminals and catch-alls are contiguous.
        var flatEntries: [Entry] = []
        flatEntries.reserveCapacity(entries.count)
        var nodes = [Node](repeating: Node(), count: growing.count)
        var edges: [(parent: Int32, key: [UInt8], child: Int32)] = []
        for (index, node) in growing.enumerated() {
            var flat = Node()
            flat.hasConstants = !node.constants.isEmpty
            flat.constrained = node.constrained
            flat.parameter = node.parameter
            flat.wildcard = node.wildcard
            flat.terminalStart = Int32(flatEntries.count)
            flatEntries += node.terminals.map { entries[Int($0)] }
            flat.terminalEnd = Int32(flatEntries.count)
            flat.catchAllStart = Int32(flatEntries.count)
            flatEntries += node.catchAlls.map { entries[Int($0)] }
            flat.catchAllEnd = Int32(flatEntries.count)
            for (key, child) in node.constants {
                edges.append((Int32(index), key, child))
            }
            nodes[index] = flat
        }
        // Children always have higher indices than parents: compute subtree maxima backwards.
        for index in nodes.indices.reversed() {
            var best = Int.min
            for entry in flatEntries[Int(nodes[index].terminalStart)..<Int(nodes[index].catchAllEnd)] {
                best = max(best, entry.priority)
            }
            for child in [nodes[index].constrained, nodes[index].parameter, nodes[index].wildcard] where child >= 0 {
                best = max(best, nodes[Int(child)].maxPriority)
            }
            for child in growing[index].constants.values {
                best = max(best, nodes[Int(child)].maxPriority)
            }
            nodes[index].maxPriority = best
        }
        self.init(
            nodes: nodes, entries: flatEntries, constants: ConstantIndex(edges: edges),
            namespaces: namespaces, regexes: regexes, caseSensitive: caseSensitive
        )
    }
}
