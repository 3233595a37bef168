import JunctionCore

extension FuzzTarget {
    /// Route patterns, as a route table's author writes them: the first field (NUL-separated,
    /// at most 256 bytes) is compiled as the one route of a table through ``RouteTableBuilder``,
    /// the second (at most 512 bytes) is a URL matched against it, and a third byte picks
    /// ``HostAsPath``.
    ///
    /// Asserted: a refused pattern has diagnostics, every one an error at the pattern's line
    /// with a column inside it — the builder adds the offset's scalars to the pattern's
    /// column, so 1 ... scalars + 1 for a pattern at column 1; a pattern that builds has
    /// parameter names (``RouteTable/parameterNames(in:hostAsPath:)`` is `nil` only for one
    /// that does not parse, with the same expansion cap as the table's default); `match` finds
    /// a route exactly when `matches` finds any; every capture is a parameter of the pattern
    /// (or `**`), captured once; and for a URL of visible ASCII without `%` (nothing to
    /// decode) a named capture is a slash-free piece of the URL (of its lower-cased form, for a
    /// host read as a path).
    static let routePattern = FuzzTarget(
        name: "route-pattern",
        summary:
            "route patterns: build or refuse with diagnostics inside the pattern; matches capture the pattern's parameters"
    ) { bytes throws(FuzzFailure) in
        var input = FuzzInput(bytes)
        let pattern = String(fuzzBytes: Array(input.field().prefix(256)))
        let url = String(fuzzBytes: Array(input.field().prefix(512)))
        let hostAsPath = HostAsPath.allCases[input.choice(HostAsPath.allCases.count)]

        let file = "routes.yaml"
        var route = Route(name: "fuzz", pattern: pattern)
        route.location = SourceLocation(file: file, line: 1, column: 3)
        route.patternLocation = SourceLocation(file: file, line: 2, column: 1)
        var builder = RouteTableBuilder(options: RouteTableOptions(hostAsPath: hostAsPath))
        builder.add(route)
        let scalarCount = pattern.unicodeScalars.count

        let table: RouteTable
        do throws(RouteTableError) {
            table = try builder.build()
        } catch {
            try require(!error.diagnostics.isEmpty, "a refusal has a diagnostic", pattern.debugDescription)
            try require(
                error.diagnostics.contains { $0.severity == .error }, "a refusal has an error", error.description)
            for diagnostic in error.diagnostics {
                // The name is valid and no parameter is declared: every finding is the pattern's.
                guard let location = diagnostic.location else {
                    throw FuzzFailure("a pattern's diagnostic has a location", diagnostic.description)
                }
                try require(
                    location.file == file && location.line == 2, "a pattern's diagnostic is on the pattern's line",
                    diagnostic.description)
                try require(
                    (1...scalarCount + 1).contains(location.column),
                    "a diagnostic's column lies within the pattern",
                    "column \(location.column) for \(scalarCount) scalars: \(diagnostic) in \(pattern.debugDescription)"
                )
                try require(!diagnostic.message.isEmpty, "a diagnostic says why", diagnostic.description)
                try require(diagnostic.route == "fuzz", "a diagnostic names its route", diagnostic.description)
            }
            return
        }

        guard let names = RouteTable.parameterNames(in: pattern, hostAsPath: hostAsPath) else {
            throw FuzzFailure("a pattern that builds has parameter names", pattern.debugDescription)
        }
        try require(
            Set(names).count == names.count, "parameter names are listed once",
            "\(names) of \(pattern.debugDescription)")

        guard let uri = try? URI(url) else { return }
        let best = table.match(uri)
        let all = table.matches(uri)
        try require(
            (best == nil) == all.isEmpty, "match finds a route exactly when matches finds one",
            "match \(best.map { "\($0.parameters)" } ?? "nil"), \(all.count) matches: \(pattern.debugDescription) on \(url.debugDescription)"
        )

        let plain = url.utf8.allSatisfy { (0x21...0x7E).contains($0) && $0 != UInt8(ascii: "%") }
        let lowered = url.lowercased()
        for match in all + (best.map { [$0] } ?? []) {
            try require(match.route.name == "fuzz", "a match is of the table's route", match.route.name)
            var seen = Set<String>()
            for parameter in match.parameters {
                try require(
                    seen.insert(parameter.name).inserted, "a parameter is captured once",
                    "\(match.parameters) for \(pattern.debugDescription) on \(url.debugDescription)")
                try require(
                    parameter.name == "**" || names.contains(parameter.name),
                    "a capture is one of the pattern's parameters",
                    "\(parameter.name) not in \(names) for \(pattern.debugDescription) on \(url.debugDescription)")
                guard plain, parameter.name != "**" else { continue }
                try require(
                    parameter.value.isEmpty
                        || (!parameter.value.contains("/")
                            && (url.contains(parameter.value) || lowered.contains(parameter.value))),
                    "a capture of a URL with nothing to decode is a segment of it",
                    "\(parameter.name)=\(parameter.value.debugDescription) for \(pattern.debugDescription) on \(url.debugDescription)"
                )
            }
        }
    }
}
