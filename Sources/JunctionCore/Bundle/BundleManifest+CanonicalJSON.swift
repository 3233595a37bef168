extension BundleManifest {
    /// The manifest as canonical JSON: its YAML's keys, those without a value left out.
    ///
    /// ```json
    /// {"context":[{"name":"app_version","type":"version"}],"minimum_host_version":"5.0.0","name":"shop","on_error":"reject","sources":["mini_program"],"version":12}
    /// ```
    ///
    /// An integer version is a JSON integer, a semantic one text.
    /// - Returns: The UTF-8 bytes.
    /// - Throws: `CanonicalJSONError`, which a manifest's values never cause.
    public func canonicalJSON() throws(CanonicalJSONError) -> [UInt8] {
        try CanonicalJSON.encode(canonicalJSONValue, file: "manifest.json")
    }

    /// ``canonicalJSON()`` before it is written.
    package var canonicalJSONValue: RuleValue {
        var fields: [String: RuleValue] = ["name": .string(name), "on_error": .string(onError.rawValue)]
        switch version {
        case .integer(let number): fields["version"] = .int(Int64(number))
        case .semantic(let version): fields["version"] = .string(version.description)
        }
        if let minimumHostVersion { fields["minimum_host_version"] = .string(minimumHostVersion.description) }
        if let description { fields["description"] = .string(description) }
        if !sources.isEmpty { fields["sources"] = .array(sources.map { .string($0.rawValue) }) }
        if let context { fields["context"] = context.canonicalJSONValue }
        if !log.isEnabled {
            fields["log"] = .string("off")
        } else if log != .default {
            var policy: [String: RuleValue] = ["sample": .double(log.sample)]
            if !log.context.isEmpty { policy["context"] = .array(log.context.map(RuleValue.string)) }
            if !log.masked.isEmpty { policy["mask"] = .array(log.masked.map(RuleValue.string)) }
            if !log.hashed.isEmpty { policy["hash"] = .array(log.hashed.map(RuleValue.string)) }
            fields["log"] = .table(policy)
        }
        if !allowances.isEmpty {
            fields["allow"] = .array(
                allowances.map {
                    .table(["code": .string($0.code), "at": .string($0.subject), "reason": .string($0.reason)])
                })
        }
        return .table(fields)
    }

    /// Reads a manifest from its ``canonicalJSON()``, checking what its YAML loader checks.
    /// - Parameters:
    ///   - bytes: The JSON.
    ///   - file: The name errors give it.
    ///   - limits: What the JSON reader accepts at most.
    /// - Throws: `CanonicalJSONError` with the path of the first problem.
    public init(
        canonicalJSON bytes: [UInt8], file: String = "manifest.json", limits: CanonicalJSONLimits = .default
    ) throws(CanonicalJSONError) {
        try self.init(canonicalJSONValue: CanonicalJSON.decode(bytes, file: file, limits: limits), file: file)
    }

    /// Reads a manifest from decoded canonical JSON.
    package init(canonicalJSONValue value: RuleValue, file: String) throws(CanonicalJSONError) {
        var object = try CanonicalJSONObject(value, at: "", file: file, what: "a bundle manifest")
        let name = try object.requiredString("name")
        guard
            !name.isEmpty,
            name.utf8.allSatisfy({ Bytes.isAlpha($0) || Bytes.isDigit($0) || "._-".utf8.contains($0) })
        else {
            throw object.error(
                "name", "\"\(ContextSchema.shown(name))\" must be letters, digits, \".\", \"_\" and \"-\"")
        }
        let version: BundleVersion
        switch try object.required("version") {
        case .int(let number) where number >= 0 && Int(exactly: number) != nil:
            version = .integer(Int(number))
        case .string(let text):
            guard case .semantic(let semantic)? = BundleVersion(text) else {
                throw object.error("version", "\"\(ContextSchema.shown(text))\" is not a semantic version (1.4.0)")
            }
            version = .semantic(semantic)
        case let other:
            throw CanonicalJSONObject.mismatch(
                other, expected: "a whole number or a semantic version as text", at: "version", file: file)
        }
        self.init(name: name, version: version)
        if let text = try object.string("minimum_host_version") {
            do {
                minimumHostVersion = try SemanticVersion(parsing: text)
            } catch {
                throw object.error("minimum_host_version", "\(error)")
            }
        }
        description = try object.string("description")
        if let text = try object.string("on_error") {
            guard let policy = RuleErrorPolicy(rawValue: text) else {
                throw object.error("on_error", "must be reject or continue (got \"\(ContextSchema.shown(text))\")")
            }
            onError = policy
        }
        for (index, source) in (try object.strings("sources") ?? []).enumerated() {
            let place = object.path(of: "sources") + "[\(index)]"
            let valid =
                !source.isEmpty
                && source.utf8.allSatisfy {
                    (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0) || Bytes.isDigit($0) || $0 == UInt8(ascii: "_")
                }
            let request = RequestSource(rawValue: source)
            guard valid, !RequestSource.standard.contains(request), !sources.contains(request) else {
                throw object.error(
                    at: place,
                    "source \"\(ContextSchema.shown(source))\" must be lowercase letters, digits and \"_\", neither standard nor listed twice"
                )
            }
            sources.append(request)
        }
        if let schema = try object.value("context").map({ value throws(CanonicalJSONError) in
            try ContextSchema(canonicalJSON: value, at: "context", file: file)
        }) {
            context = schema
        }
        switch object.value("log") {
        case nil:
            break
        case .string("off")?:
            log = .off
        case let value?:
            var policy = try CanonicalJSONObject(value, at: object.path(of: "log"), file: file, what: "a log policy")
            switch try policy.required("sample") {
            case .double(let share): log.sample = share
            case .int(let share): log.sample = Double(share)
            case let other:
                throw CanonicalJSONObject.mismatch(
                    other, expected: "a number from 0 to 1", at: policy.path(of: "sample"), file: file)
            }
            log.context = try policy.strings("context") ?? []
            log.masked = try policy.strings("mask") ?? []
            log.hashed = try policy.strings("hash") ?? []
            try policy.finish()
            if let problem = log.problem(schema: context) { throw object.error("log", problem) }
        }
        let allowed = try object.array("allow") ?? []
        guard allowed.count <= FindingAllowance.maximumCount else {
            throw object.error("allow", "lists more than \(FindingAllowance.maximumCount) allowances")
        }
        for (index, item) in allowed.enumerated() {
            var entry = try CanonicalJSONObject(
                item, at: object.path(of: "allow") + "[\(index)]", file: file, what: "an allowance")
            let code = try entry.requiredString("code")
            let subject = try entry.requiredString("at")
            let reason = try entry.requiredString("reason")
            for (field, text) in [("code", code), ("at", subject), ("reason", reason)] {
                if let problem = FindingAllowance.problem(with: text, field: field) {
                    throw entry.error(field, problem)
                }
            }
            try entry.finish()
            allowances.append(FindingAllowance(code: code, subject: subject, reason: reason))
        }
        try object.finish()
    }
}
