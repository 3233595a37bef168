extension ParameterDeclaration {
    /// The declaration as canonical JSON's value:
    /// `{"default":"posts","name":"tab","type":"string"}`; a default has its type's JSON form.
    package var canonicalJSONValue: RuleValue {
        var fields: [String: RuleValue] = ["name": .string(name), "type": .string(type.rawValue)]
        if isRequired { fields["required"] = true }
        if let description { fields["description"] = .string(description) }
        switch defaultValue {
        case nil: break
        case .string(let text)?, .uuid(let text)?: fields["default"] = .string(text)
        case .int(let number)?: fields["default"] = .int(Int64(number))
        case .double(let number)?: fields["default"] = .double(number)
        case .bool(let flag)?: fields["default"] = .bool(flag)
        }
        return .table(fields)
    }

    /// Reads ``canonicalJSONValue`` back; a default must have the declared type.
    package init(canonicalJSON value: RuleValue, at path: String, file: String) throws(CanonicalJSONError) {
        var object = try CanonicalJSONObject(value, at: path, file: file, what: "a parameter")
        self.init(try object.requiredString("name"))
        let typeName = try object.requiredString("type")
        guard let type = ParameterType(rawValue: typeName) else {
            throw object.error(
                "type",
                "unknown parameter type \"\(ContextSchema.shown(typeName))\"; expected one of "
                    + ParameterType.allCases.map(\.rawValue).joined(separator: ", "))
        }
        self.type = type
        isRequired = try object.bool("required") ?? false
        description = try object.string("description")
        if let given = object.value("default") {
            let converted: ParameterValue? =
                switch (type, given) {
                case (.string, .string(let text)): .string(text)
                case (.uuid, .string(let text)): type.convert(text).flatMap { $0.description == text ? $0 : nil }
                case (.int, .int(let number)): Int(exactly: number).map(ParameterValue.int)
                case (.double, .double(let number)): number.isFinite ? .double(number) : nil
                case (.bool, .bool(let flag)): .bool(flag)
                default: nil
                }
            guard let converted else {
                throw CanonicalJSONObject.mismatch(
                    given, expected: "a default of type \(type.rawValue)", at: object.path(of: "default"), file: file)
            }
            defaultValue = converted
        }
        try object.finish()
    }
}
