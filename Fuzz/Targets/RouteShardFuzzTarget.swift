import JunctionCore

extension FuzzTarget {
    /// A route table re-opened from bytes validated before, compiled as URLs use it
    /// (``RouteTable/init(canonicalJSON:file:directory:limits:validatedBefore:)``), against
    /// the same table read in full: up to eight patterns (NUL-separated fields of at most 96
    /// bytes; each kept only when the table still builds with it), then up to six URLs (at
    /// most 256 bytes each), a byte for ``HostAsPath``, one for case sensitivity and one
    /// for each route's priority.
    ///
    /// Asserted: the table's canonical JSON re-opens deferred; for every URL the best match
    /// (route, parameters, index) and the match alongside a second table are the same as
    /// the table read in full gives, first while it answers from shards, then — after a
    /// request for every match, which compiles it whole — again; and its routes end equal.
    static let routeShard = FuzzTarget(
        name: "route-shard",
        summary:
            "deferred route tables: shards answer every URL as the table read in full, before and after it compiles whole"
    ) { bytes throws(FuzzFailure) in
        var input = FuzzInput(bytes)
        let patterns = (0..<8).map { _ in String(fuzzBytes: Array(input.field().prefix(96))) }.filter { !$0.isEmpty }
        let urls = (0..<6).map { _ in String(fuzzBytes: Array(input.field().prefix(256))) }
        let options = RouteTableOptions(
            hostAsPath: HostAsPath.allCases[input.choice(HostAsPath.allCases.count)],
            caseSensitive: input.choice(2) == 1)
        var builder = RouteTableBuilder(options: options)
        for (index, pattern) in patterns.enumerated() {
            var trial = builder
            trial.add(Route(name: "r\(index)", pattern: pattern, priority: input.choice(3) - 1))
            if (try? trial.build()) != nil { builder = trial }
        }
        guard !builder.routes.isEmpty, let built = try? builder.build(),
            let json = try? built.canonicalJSON(),
            let read = try? RouteTable(canonicalJSON: json)
        else { return }
        guard let deferred = try? RouteTable(canonicalJSON: json, validatedBefore: true),
            deferred.deferredProgress != nil
        else { throw FuzzFailure("a table's canonical JSON re-opens deferred", String(decoding: json, as: UTF8.self)) }
        var others = RouteTableBuilder(options: options)
        others.add(Route(name: "other", pattern: builder.routes[0].pattern))
        guard let other = try? others.build() else { return }

        func answer(_ match: RouteMatch?) -> String {
            match.map { "\($0.route.name) \($0.parameters) #\($0.routeIndex)" } ?? "-"
        }
        func compare(_ when: String) throws(FuzzFailure) {
            for url in urls {
                guard let uri = try? URI(url) else { continue }
                let (expected, got) = (answer(read.match(uri)), answer(deferred.match(uri)))
                try require(
                    got == expected, "a deferred table matches as the table read in full (\(when))",
                    "\(url.debugDescription): \(got) for \(expected), routes \(builder.routes.map(\.pattern))")
                let both = (read.match(uri, alsoIn: other), deferred.match(uri, alsoIn: other))
                try require(
                    answer(both.0.here) == answer(both.1.here) && answer(both.0.other) == answer(both.1.other),
                    "a deferred table matches alongside another as the table read in full (\(when))",
                    "\(url.debugDescription), routes \(builder.routes.map(\.pattern))")
            }
        }
        try compare("from shards")
        if let uri = urls.lazy.compactMap({ try? URI($0) }).first {
            try require(
                deferred.matches(uri).map(answer) == read.matches(uri).map(answer),
                "a deferred table's every match is the table's", "\(uri)")
        }
        try compare("compiled whole")
        try require(deferred.routes == read.routes, "a deferred table's routes are the table's", "\(json.count) bytes")
    }
}
