extension RouteTrie {
    /// One route expansion that matched, with its captures.
    struct Hit: Sendable {
        var entry: Int32
        var parameters: PathParameters
    }

    /// A route whose shape matched but whose constraint did not.
    struct Rejection: Sendable {
        var entry: Int32
        var segment: Int32
        var constraint: Constraint
        var text: String
    }

    /// Every hit in precedence order and, when asked, the constraints that failed.
    struct Outcome: Sendable {
        var hits: [Hit] = []
        var rejections: [Rejection] = []
        /// Whether a namespace existed for the URL's scheme and origin.
        var namespaceFound = false
    }

    /// The best route for `uri`: its own scheme's namespace first, then the global one.
    func best(_ uri: URI, hostAsPath: HostAsPath) -> Hit? {
        withSearchInput(uri, hostAsPath: hostAsPath) { input in best(input) }
    }

    /// The best route for `uri` in `here` and in `other`, preparing the URL once.
    static func best(
        _ uri: URI, hostAsPath: HostAsPath, in here: borrowing RouteTrie, alsoIn other: borrowing RouteTrie
    ) -> (here: Hit?, other: Hit?) {
        // Both tries are borrowed (not copied, so not retained) for the closure, which
        // cannot outlive this call.
        withSearchInput(uri, hostAsPath: hostAsPath) { input in (here.best(input), other.best(input)) }
    }

    /// The best route for a prepared input (which several tries may share).
    func best(_ input: SearchInput) -> Hit? {
        let roots = roots(for: input)
        return withSearch(input, collectAll: false, explain: false) { search in
            for position in 0..<2 {
                let root = position == 0 ? roots.scheme : roots.global
                guard root >= 0 else { continue }
                search.visit(root, depth: 0)
                if search.best >= 0 {
                    return Hit(entry: search.best, parameters: search.parameters(of: search.best))
                }
            }
            return nil
        }
    }

    /// Every route matching `uri` in precedence order: its own scheme's first, each
    /// namespace sorted by priority, then specificity, then registration order.
    func all(_ uri: URI, hostAsPath: HostAsPath, explain: Bool) -> Outcome {
        withSearchInput(uri, hostAsPath: hostAsPath) { input in
            withSearch(input, collectAll: true, explain: explain) { search in
                var outcome = Outcome()
                let roots = roots(for: input)
                for position in 0..<2 {
                    let root = position == 0 ? roots.scheme : roots.global
                    guard root >= 0 else { continue }
                    outcome.namespaceFound = true
                    search.visit(root, depth: 0)
                    // DFS order is specificity then registration; priority comes first.
                    let ordered = search.found.enumerated().sorted {
                        let (a, b) = (
                            search.entries[Int($0.element)].priority, search.entries[Int($1.element)].priority
                        )
                        return a != b ? a > b : $0.offset < $1.offset
                    }
                    for (_, entry) in ordered {
                        outcome.hits.append(Hit(entry: entry, parameters: search.parameters(of: entry)))
                    }
                    search.found.removeAll(keepingCapacity: true)
                }
                outcome.rejections = search.rejections
                return outcome
            }
        }
    }

    /// The roots to search, in order: the URL's scheme and origin, then global patterns
    /// with the same origin; -1 for none. Namespaces are unique per (scheme, host), so
    /// there are at most these two — returned as a pair, not an array, so a search
    /// allocates nothing for them.
    private func roots(for input: SearchInput) -> (scheme: Int32, global: Int32) {
        var roots: (scheme: Int32, global: Int32) = (-1, -1)
        namespaces.withUnsafeBufferPointer { namespaces in
            for index in namespaces.indices where Self.same(namespaces[index].host, input.origin) {
                if namespaces[index].scheme == nil {
                    roots.global = namespaces[index].root
                } else if let scheme = input.scheme, Self.same(namespaces[index].scheme, scheme) {
                    roots.scheme = namespaces[index].root
                }
            }
        }
        return roots
    }

    private func withSearch<Result>(
        _ input: SearchInput, collectAll: Bool, explain: Bool, _ body: (inout MatchSearch) -> Result
    ) -> Result {
        nodes.withUnsafeBufferPointer { nodes in
            entries.withUnsafeBufferPointer { entries in
                regexes.withUnsafeBufferPointer { regexes in
                    constants.withLookup { constants in
                        var search = MatchSearch(
                            nodes: nodes, entries: entries, regexes: regexes, constants: constants,
                            caseSensitive: caseSensitive, text: input.text, segments: input.segments,
                            collectAll: collectAll, explain: explain)
                        return body(&search)
                    }
                }
            }
        }
    }

    @inline(__always)
    private static func same(_ a: [UInt8]?, _ b: UnsafeBufferPointer<UInt8>?) -> Bool {
        switch (a, b) {
        case (nil, nil): return true
        case let (a?, b?): return a.withUnsafeBufferPointer { Bytes.equal($0, b) }
        default: return false
        }
    }
}

/// A URL prepared for matching: scheme and origin folded, path segments decoded once,
/// all in one stack buffer.
struct SearchInput {
    /// The lower-cased scheme, or `nil` for a relative reference.
    var scheme: UnsafeBufferPointer<UInt8>?
    /// The decoded, lower-cased host when it is an origin; `nil` when absent or a path segment.
    var origin: UnsafeBufferPointer<UInt8>?
    /// Decoded segments, each followed by `/`.
    var text: UnsafeBufferPointer<UInt8>
    /// `[start, end)` pairs into `text`, one per segment.
    var segments: UnsafeBufferPointer<Int32>
}

/// Prepares `uri` and calls `body` with it; the buffers live only during the call.
func withSearchInput<Result>(_ uri: URI, hostAsPath: HostAsPath, _ body: (SearchInput) -> Result) -> Result {
    let layout = uri.layout
    return uri.withBytes { bytes in
        // Hosts with escapes or non-ASCII letters are folded the slow, Unicode-aware way.
        let hostRange = layout.hasAuthority ? Int(layout.hostStart)..<Int(layout.hostEnd) : 0..<0
        let rawHost = UnsafeBufferPointer(rebasing: bytes[hostRange])
        let unicodeHost: String? =
            layout.originNeedsFolding && rawHost.contains(where: { $0 >= 0x80 || $0 == Bytes.percent })
            ? uri.host : nil
        let hostLength = unicodeHost?.utf8.count ?? rawHost.count
        let schemeLength = layout.schemeEnd >= 0 ? Int(layout.schemeEnd) : 0
        let pathRange = Int(layout.pathStart)..<Int(layout.pathEnd)
        // Decoded segments are never longer than their escapes; each gets a "/" after it.
        let capacity = schemeLength + hostLength + pathRange.count + 2
        var slashes = 0
        for byte in bytes[pathRange] where byte == Bytes.slash { slashes += 1 }
        let maxSegments = slashes + 2

        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: capacity) { scratch in
            withUnsafeTemporaryAllocation(of: Int32.self, capacity: maxSegments * 2) { bounds in
                var used = 0
                for i in 0..<schemeLength { scratch[i] = Bytes.lowercased(bytes[i]) }
                used = schemeLength
                let hostStart = used
                if let unicodeHost {
                    for byte in unicodeHost.utf8 {
                        scratch[used] = byte
                        used += 1
                    }
                } else {
                    let literal = layout.hostKind == .ipv6 || layout.hostKind == .ipvFuture
                    let source = literal ? UnsafeBufferPointer(rebasing: rawHost.dropFirst().dropLast()) : rawHost
                    for byte in source {
                        scratch[used] = Bytes.lowercased(byte)
                        used += 1
                    }
                }
                let host = UnsafeBufferPointer(rebasing: scratch[hostStart..<used])
                var origin: UnsafeBufferPointer<UInt8>?
                var count = 0
                if layout.hasAuthority, !host.isEmpty {
                    if layout.hostKind == .registeredName, hostAsPath.treatsAsPath(host) {
                        bounds[0] = Int32(hostStart)
                        bounds[1] = Int32(used)
                        count = 1
                        scratch[used] = Bytes.slash  // so a `**` capture reads "host/rest"
                        used += 1
                    } else {
                        origin = host
                    }
                }
                // Path segments, each decoded once; one trailing empty segment dropped.
                if !pathRange.isEmpty {
                    var start = pathRange.lowerBound
                    if bytes[start] == Bytes.slash { start += 1 }
                    var i = start
                    if !layout.pathHasEscapes {
                        // Nothing to decode: the raw path already reads "seg/seg"; copy it whole.
                        let length = pathRange.upperBound - start
                        UnsafeMutableRawPointer(scratch.baseAddress! + used)
                            .copyMemory(from: bytes.baseAddress! + start, byteCount: length)
                        let offset = used - start
                        while i <= pathRange.upperBound {
                            if i == pathRange.upperBound || bytes[i] == Bytes.slash {
                                bounds[count * 2] = Int32(start + offset)
                                bounds[count * 2 + 1] = Int32(i + offset)
                                count += 1
                                start = i + 1
                            }
                            i += 1
                        }
                        used += length
                    } else {
                        while i <= pathRange.upperBound {
                            if i == pathRange.upperBound || bytes[i] == Bytes.slash {
                                bounds[count * 2] = Int32(used)
                                let segment = UnsafeBufferPointer(rebasing: bytes[start..<i])
                                used += PercentDecoding.decode(
                                    segment, into: scratch.baseAddress! + used, plusAsSpace: false)
                                bounds[count * 2 + 1] = Int32(used)
                                count += 1
                                scratch[used] = Bytes.slash  // so a `**` capture reads "a/b"
                                used += 1
                                start = i + 1
                            }
                            i += 1
                        }
                    }
                    if count > 0, bounds[count * 2 - 2] == bounds[count * 2 - 1] { count -= 1 }
                }
                return body(
                    SearchInput(
                        scheme: layout.schemeEnd >= 0 ? UnsafeBufferPointer(rebasing: scratch[0..<schemeLength]) : nil,
                        origin: origin,
                        text: UnsafeBufferPointer(scratch),
                        segments: UnsafeBufferPointer(rebasing: bounds[0..<(count * 2)])))
            }
        }
    }
}
