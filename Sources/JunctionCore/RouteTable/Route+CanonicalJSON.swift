extension Route {
    /// The route as canonical JSON's value (see ``RouteTable/canonicalJSON(relativeTo:)``).
    package func canonicalJSONValue(relativeTo directory: String?) -> RuleValue {
        var fields: [String: RuleValue] = ["name": .string(name), "pattern": .string(pattern)]
        if target != name { fields["target"] = .string(target) }
        if priority != 0 { fields["priority"] = .int(Int64(priority)) }
        if !groups.isEmpty { fields["groups"] = .array(groups.map(RuleValue.string)) }
        if isExported { fields["exported"] = true }
        if let description { fields["description"] = .string(description) }
        if !parameters.isEmpty { fields["params"] = .array(parameters.map(\.canonicalJSONValue)) }
        if !returns.isEmpty { fields["returns"] = .array(returns.map(\.canonicalJSONValue)) }
        if !meta.isEmpty { fields["meta"] = .table(meta) }
        if launchMode != .standard { fields["launch"] = .string(launchMode.rawValue) }
        if isParamsStrict { fields["params_strict"] = true }
        if let location { fields["location"] = location.canonicalJSONValue(relativeTo: directory) }
        if let patternLocation {
            fields["pattern_location"] = patternLocation.canonicalJSONValue(relativeTo: directory)
        }
        return .table(fields)
    }

    /// Reads ``canonicalJSONValue(relativeTo:)`` back from its object, however it was read;
    /// `fileNames` lets the locations of a table's routes share their file's string.
    package init(
        canonicalJSON object: CanonicalJSONObject, file: String, directory: String?, fileNames: inout SourceFileNames
    ) throws(CanonicalJSONError) {
        var object = object
        let name = try object.requiredString("name")
        self.init(name: name, pattern: try object.requiredString("pattern"))
        target = try object.string("target") ?? name
        priority = try object.int("priority") ?? 0
        groups = try object.strings("groups") ?? []
        isExported = try object.bool("exported") ?? false
        description = try object.string("description")
        for key in ["params", "returns"] {
            let declarations = try (object.array(key) ?? []).enumerated().map {
                (index, item) throws(CanonicalJSONError) in
                try ParameterDeclaration(canonicalJSON: item, at: object.path(of: key) + "[\(index)]", file: file)
            }
            if key == "params" { parameters = declarations } else { returns = declarations }
        }
        if let meta = object.value("meta") {
            guard case .table(let fields) = meta else {
                throw CanonicalJSONObject.mismatch(meta, expected: "an object", at: object.path(of: "meta"), file: file)
            }
            self.meta = fields
        }
        isParamsStrict = try object.bool("params_strict") ?? false
        if let launch = try object.string("launch") {
            guard let mode = LaunchMode(rawValue: launch) else {
                throw object.error(
                    "launch",
                    "\(launch) is no launch mode; use one of "
                        + LaunchMode.allCases.map(\.rawValue).joined(separator: ", "))
            }
            launchMode = mode
        }
        location = try object.value("location").map { value throws(CanonicalJSONError) in
            try SourceLocation(
                canonicalJSON: value, at: object.path(of: "location"), file: file, directory: directory,
                fileNames: &fileNames)
        }
        patternLocation = try object.value("pattern_location").map { value throws(CanonicalJSONError) in
            try SourceLocation(
                canonicalJSON: value, at: object.path(of: "pattern_location"), file: file, directory: directory,
                fileNames: &fileNames)
        }
        try object.finish()
    }
}
