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

    /// The outcome of one search: the best hit (or every hit, in precedence order) and,
    /// when asked, the constraints that failed on the way.
    struct Outcome: Sendable {
        var hits: [Hit] = []
        var rejections: [Rejection] = []
        /// Whether a namespace existed for the URL's scheme and origin.
        var namespaceFound = false
    }

    /// Searches for the route(s) matching `uri`.
    /// - Parameters:
    ///   - uri: The URL.
    ///   - hostAsPath: When the host is the first path segment.
    ///   - all: Every match in precedence order instead of the best one.
    ///   - explain: Whether to record failed constraints.
    func search(_ uri: URI, hostAsPath: HostAsPath, all: Bool, explain: Bool) -> Outcome {
        let layout = uri.layout
        return uri.withBytes { bytes in
            // The origin: scheme and host, folded. Hosts with escapes or non-ASCII go the slow way.
            let hostRange = layout.hasAuthority ? Int(layout.hostStart)..<Int(layout.hostEnd) : 0..<0
            let rawHost = UnsafeBufferPointer(rebasing: bytes[hostRange])
            let unicodeHost: String? = layout.originNeedsFolding && rawHost.contains(where: { $0 >= 0x80 || $0 == Bytes.percent })
                ? uri.host : nil
            let hostLength = unicodeHost?.utf8.count ?? rawHost.count
            let schemeLength = layout.schemeEnd >= 0 ? Int(layout.schemeEnd) : 0
            let pathRange = Int(layout.pathStart)..<Int(layout.pathEnd)
            let capacity = schemeLength + hostLength + pathRange.count + 2
            var slashes = 0
            for byte in bytes[pathRange] where byte == Bytes.slash { slashes += 1 }
            let maxSegments = slashes + 2

            return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: capacity) { scratch in
                withUnsafeTemporaryAllocation(of: Int32.self, capacity: maxSegments * 2) { bounds in
                    var used = 0
                    // Scheme, lower-cased.
                    for i in 0..<schemeLength { scratch[used + i] = Bytes.lowercased(bytes[i]) }
                    let scheme = layout.schemeEnd >= 0 ? UnsafeBufferPointer(rebasing: scratch[0..<schemeLength]) : nil
                    used += schemeLength
                    // Host, decoded and lower-cased.
                    let hostStart = used
                    if let unicodeHost {
                        for byte in unicodeHost.utf8 { scratch[used] = byte; used += 1 }
                    } else {
                        let kind = layout.hostKind
                        let literal = kind == .ipv6 || kind == .ipvFuture
                        let source = literal ? UnsafeBufferPointer(rebasing: rawHost.dropFirst().dropLast()) : rawHost
                        for byte in source { scratch[used] = Bytes.lowercased(byte); used += 1 }
                    }
                    let host = UnsafeBufferPointer(rebasing: scratch[hostStart..<used])
                    var origin: UnsafeBufferPointer<UInt8>? = nil
                    var count = 0
                    if layout.hasAuthority, !host.isEmpty {
                        if layout.hostKind == .registeredName, Self.hostIsPath(host, hostAsPath) {
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
                        while i <= pathRange.upperBound {
                            if i == pathRange.upperBound || bytes[i] == Bytes.slash {
                                let segment = UnsafeBufferPointer(rebasing: bytes[start..<i])
                                bounds[count * 2] = Int32(used)
                                if layout.pathHasEscapes {
                                    used += PercentDecoding.decode(segment, into: scratch.baseAddress! + used, plusAsSpace: false)
                                } else {
                                    for byte in segment { scratch[used] = byte; used += 1 }
                                }
                                bounds[count * 2 + 1] = Int32(used)
                                count += 1
                                scratch[used] = Bytes.slash  // so a `**` capture reads "a/b"
                                used += 1
                                start = i + 1
                            }
                            i += 1
                        }
                        if count > 0, bounds[count * 2 - 2] == bounds[count * 2 - 1] { count -= 1 }
                    }

                    var outcome = Outcome()
                    let text = UnsafeBufferPointer(scratch)
                    let segments = UnsafeBufferPointer(rebasing: bounds[0..<(count * 2)])
                    for namespace in namespaces where Self.same(namespace.host, origin) && namespace.scheme != nil && Self.same(namespace.scheme, scheme) {
                        outcome.namespaceFound = true
                        run(namespace.root, text: text, segments: segments, all: all, explain: explain, into: &outcome)
                    }
                    if all || outcome.hits.isEmpty {
                        for namespace in namespaces where namespace.scheme == nil && Self.same(namespace.host, origin) {
                            outcome.namespaceFound = true
                            run(namespace.root, text: text, segments: segments, all: all, explain: explain, into: &outcome)
                        }
                    }
                    return outcome
                }
            }
        }
    }

    private func run(
        _ root: Int32, text: UnsafeBufferPointer<UInt8>, segments: UnsafeBufferPointer<Int32>,
        all: Bool, explain: Bool, into outcome: inout Outcome
    ) {
        nodes.withUnsafeBufferPointer { nodes in
            entries.withUnsafeBufferPointer { entries in
                var search = MatchSearch(
                    trie: self, nodes: nodes, entries: entries, text: text, segments: segments,
                    collectAll: all, explain: explain
                )
                search.visit(root, depth: 0)
                var found = search.found
                if all {
                    // DFS order is specificity then registration; priority comes first.
                    found = found.enumerated().sorted {
                        let (a, b) = (entries[Int($0.element)].priority, entries[Int($1.element)].priority)
                        return a != b ? a > b : $0.offset < $1.offset
                    }.map(\.element)
                } else if search.best >= 0 {
                    found = [search.best]
                }
                for entry in found {
                    outcome.hits.append(Hit(entry: entry, parameters: search.parameters(of: entries[Int(entry)])))
                }
                outcome.rejections += search.rejections
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

    /// `HostAsPath` over folded bytes: no dot and not `localhost` under `.auto`.
    private static func hostIsPath(_ host: UnsafeBufferPointer<UInt8>, _ mode: HostAsPath) -> Bool {
        switch mode {
        case .always: return true
        case .never: return false
        case .auto: return !host.contains(Bytes.dot) && !host.elementsEqual("localhost".utf8)
        }
    }
}
