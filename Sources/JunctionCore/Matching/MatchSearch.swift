/// The depth-first search over one namespace's trie. Children are tried from the most
/// specific (constant) to the least (`**`), so the first hit is the most specific; a
/// hit of lower priority than one already found is pruned by each subtree's maximum.
/// The search backtracks: a branch that fails deeper down gives way to the next sibling.
///
/// A search holds pointers into a trie's arrays and a ``SearchInput``'s buffers; it is
/// sound because only `RouteTrie.withSearch` makes one, lending it for that call alone,
/// while the trie and the input are alive.
struct MatchSearch {
    let nodes: UnsafeBufferPointer<RouteTrie.Node>
    let entries: UnsafeBufferPointer<RouteTrie.Entry>
    /// The trie's compiled regexes, by ``RouteTrie/Constraint/regex(_:)`` index.
    let regexes: UnsafeBufferPointer<RouteRegex>
    let constants: ConstantIndex.Lookup
    let caseSensitive: Bool
    /// Decoded segments, laid out one after another.
    let text: UnsafeBufferPointer<UInt8>
    /// `[start, end)` pairs into `text`, one per segment.
    let segments: UnsafeBufferPointer<Int32>
    let collectAll: Bool
    let explain: Bool

    /// The best entry so far (when not collecting all), or -1.
    private(set) var best: Int32 = -1
    private var bestPriority = Int.min
    /// Every matching entry in visiting order (when collecting all).
    var found: [Int32] = []
    private(set) var rejections: [RouteTrie.Rejection] = []

    init(
        nodes: UnsafeBufferPointer<RouteTrie.Node>, entries: UnsafeBufferPointer<RouteTrie.Entry>,
        regexes: UnsafeBufferPointer<RouteRegex>, constants: ConstantIndex.Lookup, caseSensitive: Bool,
        text: UnsafeBufferPointer<UInt8>, segments: UnsafeBufferPointer<Int32>, collectAll: Bool, explain: Bool
    ) {
        self.nodes = nodes
        self.entries = entries
        self.regexes = regexes
        self.constants = constants
        self.caseSensitive = caseSensitive
        self.text = text
        self.segments = segments
        self.collectAll = collectAll
        self.explain = explain
    }

    private var segmentCount: Int { segments.count / 2 }

    @inline(__always)
    private func segment(_ index: Int) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(rebasing: text[Int(segments[index * 2])..<Int(segments[index * 2 + 1])])
    }

    /// Whether a subtree can still change the result.
    @inline(__always)
    private func worthVisiting(_ node: Int32) -> Bool {
        collectAll || best < 0 || nodes[Int(node)].maxPriority > bestPriority
    }

    mutating func visit(_ index: Int32, depth: Int) {
        let node = nodes[Int(index)]
        if depth == segmentCount {
            consider(node.terminalStart..<node.terminalEnd)
            consider(node.catchAllStart..<node.catchAllEnd)
            return
        }
        let current = segment(depth)
        if node.hasConstants {
            let child = constantChild(of: index, current)
            if child >= 0, worthVisiting(child) { visit(child, depth: depth + 1) }
        }
        if !current.isEmpty {
            if node.constrained >= 0, worthVisiting(node.constrained) { visit(node.constrained, depth: depth + 1) }
            if node.parameter >= 0, worthVisiting(node.parameter) { visit(node.parameter, depth: depth + 1) }
            if node.wildcard >= 0, worthVisiting(node.wildcard) { visit(node.wildcard, depth: depth + 1) }
        }
        consider(node.catchAllStart..<node.catchAllEnd)
    }

    @inline(__always)
    private func constantChild(of node: Int32, _ key: UnsafeBufferPointer<UInt8>) -> Int32 {
        if caseSensitive || !Bytes.containsUppercaseASCII(key) && !key.contains(where: { $0 >= 0x80 }) {
            return constants.child(of: node, key: key)
        }
        // Fold the segment for a case-insensitive table.
        let folded = String(decoding: key, as: UTF8.self).lowercased()
        return folded.utf8.withContiguousStorageIfAvailable { constants.child(of: node, key: $0) }
            ?? Array(folded.utf8).withUnsafeBufferPointer { constants.child(of: node, key: $0) }
    }

    private mutating func consider(_ range: Range<Int32>) {
        for index in range {
            let priority = entries[Int(index)].priority
            if !collectAll, best >= 0, priority <= bestPriority { continue }
            guard entries[Int(index)].checks.isEmpty || passesChecks(of: index) else { continue }
            if collectAll {
                found.append(index)
            } else {
                best = index
                bestPriority = priority
            }
        }
    }

    private mutating func passesChecks(of index: Int32) -> Bool {
        for (position, constraint) in entries[Int(index)].checks {
            let bytes = segment(Int(position))
            let passes: Bool
            switch constraint {
            case .type(let type):
                passes = Self.converts(bytes, to: type)
            case .regex(let index):
                passes = regexes[Int(index)].matchesWhole(bytes)
            }
            if !passes {
                if explain {
                    rejections.append(
                        RouteTrie.Rejection(
                            entry: index, segment: position, constraint: constraint,
                            text: String(decoding: bytes, as: UTF8.self)))
                }
                return false
            }
        }
        return true
    }

    /// Whether a segment converts to `type`; integers without allocating.
    private static func converts(_ bytes: UnsafeBufferPointer<UInt8>, to type: ParameterType) -> Bool {
        guard type == .int else { return type.convert(String(decoding: bytes, as: UTF8.self)) != nil }
        var i = 0
        var negative = false
        if i < bytes.count, bytes[i] == UInt8(ascii: "-") || bytes[i] == UInt8(ascii: "+") {
            negative = bytes[i] == UInt8(ascii: "-")
            i += 1
        }
        guard i < bytes.count else { return false }
        var value = 0
        while i < bytes.count {
            guard Bytes.isDigit(bytes[i]) else { return false }
            let digit = Int(bytes[i] - UInt8(ascii: "0"))
            let (times, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (next, overflow2) =
                negative ? times.subtractingReportingOverflow(digit) : times.addingReportingOverflow(digit)
            if overflow1 || overflow2 { return false }
            value = next
            i += 1
        }
        return true
    }

    /// The captures of an entry, decoded segments as text.
    func parameters(of index: Int32) -> PathParameters {
        let captures = entries[Int(index)].captures
        let catchAllFrom = Int(entries[Int(index)].catchAllFrom)
        var parameters: [PathParameters.Parameter] = []
        parameters.reserveCapacity(captures.count + (catchAllFrom >= 0 ? 1 : 0))
        for capture in captures {
            parameters.append(
                .init(name: capture.name, value: String(decoding: segment(Int(capture.segment)), as: UTF8.self)))
        }
        if catchAllFrom >= 0 {
            var value = ""
            if catchAllFrom < segmentCount {
                let range = Int(segments[catchAllFrom * 2])..<Int(segments[segmentCount * 2 - 1])
                value = String(decoding: UnsafeBufferPointer(rebasing: text[range]), as: UTF8.self)
            }
            parameters.append(.init(name: "**", value: value))
        }
        return PathParameters(parameters)
    }
}
