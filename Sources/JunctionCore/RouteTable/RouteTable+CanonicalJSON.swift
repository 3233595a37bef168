extension RouteTable {
    /// The table as canonical JSON: its options and every route with every field its YAML
    /// loader reads, plus where each route and pattern was written; a field at its default
    /// (`priority` 0, no `groups`, `target` equal to the name …) is left out.
    ///
    /// ```json
    /// {"options":{"caseSensitive":true,"dispatchedSchemes":[],"hostAsPath":"auto","plusAsSpace":true},"routes":[{"exported":true,"name":"home","pattern":"myapp://home"}]}
    /// ```
    /// - Parameter directory: The bundle's folder: locations inside it are written relative
    ///   to it, so the bytes do not depend on where the builder's disk keeps the bundle.
    /// - Returns: The UTF-8 bytes.
    /// - Throws: `CanonicalJSONError` for a `meta` value JSON cannot hold (NaN, infinity).
    public func canonicalJSON(relativeTo directory: String? = nil) throws(CanonicalJSONError) -> [UInt8] {
        try CanonicalJSON.encode(canonicalJSONValue(relativeTo: directory), file: "routes.json")
    }

    /// ``canonicalJSON(relativeTo:)`` before it is written.
    package func canonicalJSONValue(relativeTo directory: String?) -> RuleValue {
        let options: RuleValue = [
            "hostAsPath": .string(options.hostAsPath.rawValue), "plusAsSpace": .bool(options.plusAsSpace),
            "caseSensitive": .bool(options.caseSensitive),
            "dispatchedSchemes": .array(options.dispatchedSchemes.sorted().map(RuleValue.string)),
        ]
        return ["options": options, "routes": .array(routes.map { $0.canonicalJSONValue(relativeTo: directory) })]
    }

    /// Reads a table from its ``canonicalJSON(relativeTo:)`` and builds it with
    /// ``RouteTableBuilder``, as the YAML loader does, so it matches alike.
    /// - Parameters:
    ///   - bytes: The JSON.
    ///   - file: The name errors give it.
    ///   - directory: The folder the locations' files are put back inside.
    ///   - limits: What the JSON reader accepts at most.
    /// - Throws: `CanonicalJSONError` with the path of the first problem, or the builder's
    ///   findings (a duplicate name, a pattern that does not parse …) at `routes`.
    public init(
        canonicalJSON bytes: [UInt8], file: String = "routes.json", directory: String? = nil,
        limits: CanonicalJSONLimits = .default
    ) throws(CanonicalJSONError) {
        try self.init(canonicalJSON: bytes, file: file, directory: directory, limits: limits, validatedBefore: false)
    }

    /// ``init(canonicalJSON:file:directory:limits:)``; with `validatedBefore`, bytes this
    /// process's code validated before (see ``RouteTableBuilder/buildValidatedBefore()``)
    /// are decoded and compiled without comparing their routes again.
    package init(
        canonicalJSON bytes: [UInt8], file: String = "routes.json", directory: String? = nil,
        limits: CanonicalJSONLimits = .default, validatedBefore: Bool
    ) throws(CanonicalJSONError) {
        // Bytes validated before are skimmed, and compiled as URLs use them.
        if validatedBefore,
            let deferred = DeferredRoutes(
                bytes: bytes, file: file, directory: directory, limits: limits, options: Self.options(in:))
        {
            self.init(deferred: deferred)
            return
        }
        // The routes' objects are read member by member: a table's thousand routes had each
        // built a dictionary to be read once.
        var reader = CanonicalJSONReader(bytes: bytes, file: file, limits: limits)
        let (value, routeItems) = try reader.readDocument(objectsIn: "routes")
        var document = try CanonicalJSONObject(value, at: "", file: file, what: "a route table")
        let options = try Self.options(in: &document)
        guard let items = try document.array("routes") else { throw document.error(at: "", "missing \"routes\"") }
        try document.finish()
        var builder = RouteTableBuilder(options: options)
        var fileNames = SourceFileNames()
        for (index, item) in (routeItems ?? items.map(CanonicalJSONReader.Item.value)).enumerated() {
            let path = "routes[\(index)]"
            let object: CanonicalJSONObject
            switch item {
            case .members(let members): object = CanonicalJSONObject(members: members, at: path, file: file)
            case .value(let value): object = try CanonicalJSONObject(value, at: path, file: file, what: "a route")
            }
            builder.add(try Route(canonicalJSON: object, file: file, directory: directory, fileNames: &fileNames))
        }
        do {
            self = try validatedBefore ? builder.buildValidatedBefore() : builder.build()
        } catch {
            throw CanonicalJSONError(file: file, place: "routes", message: error.description)
        }
    }

    /// The `options` member of a table's document.
    private static func options(in document: inout CanonicalJSONObject) throws(CanonicalJSONError)
        -> RouteTableOptions
    {
        var options = RouteTableOptions()
        guard var object = try document.object("options", what: "the options") else { return options }
        if let text = try object.string("hostAsPath") {
            guard let mode = HostAsPath(rawValue: text) else {
                throw object.error(
                    "hostAsPath", "must be one of auto, always, never (got \"\(ContextSchema.shown(text))\")")
            }
            options.hostAsPath = mode
        }
        options.plusAsSpace = try object.bool("plusAsSpace") ?? options.plusAsSpace
        options.caseSensitive = try object.bool("caseSensitive") ?? options.caseSensitive
        options.dispatchedSchemes = Set((try object.strings("dispatchedSchemes") ?? []).map { $0.lowercased() })
        try object.finish()
        return options
    }
}
