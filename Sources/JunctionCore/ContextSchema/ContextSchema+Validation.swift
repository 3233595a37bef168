extension ContextSchema {
    /// How `snapshot` differs from the schema: keys it does not declare (at any depth)
    /// and values not of their declared type, in key order, at most
    /// ``maximumProblems``. Absent keys and `nil` values are never problems.
    ///
    /// The work is bounded by the snapshot's size: it looks inside a value only as far
    /// as the schema declares (not inside an undeclared key, an `any` or a value of the
    /// wrong type), so nesting deeper than the schema costs nothing. Call it where a
    /// snapshot is made — in debug builds, or to report telemetry — not per decision.
    /// - Parameter snapshot: What the app passes as `ctx`.
    /// - Returns: The problems; empty when the snapshot fits.
    public func validate(_ snapshot: ContextSnapshot) -> [ContextProblem] {
        var problems: [ContextProblem] = []
        var budget = Self.suggestionBudget
        check(snapshot.values, prefix: "", into: &problems, &budget)
        return problems
    }

    private func check(
        _ values: [String: RuleValue], prefix: String, into problems: inout [ContextProblem], _ budget: inout Int
    ) {
        // Sorted, so the same snapshot reports the same problems, and the cap keeps the same ones.
        for key in values.keys.sorted() {
            guard problems.count < Self.maximumProblems else { return }
            let value = values[key]!
            guard let type = self[key] else {
                if case .nil = value { continue }
                problems.append(
                    ContextProblem(
                        .undeclaredKey, path: prefix + key, expected: nil, found: Self.kind(of: value),
                        suggestion: nearestKey(to: key, prefix: prefix, budget: &budget)))
                continue
            }
            Self.check(value, type, path: prefix + key, into: &problems, &budget)
        }
    }

    private static func check(
        _ value: RuleValue, _ type: ContextType, path: String, into problems: inout [ContextProblem],
        _ budget: inout Int
    ) {
        guard type.admits(value) else {
            problems.append(ContextProblem(.wrongType, path: path, expected: type, found: kind(of: value)))
            return
        }
        switch (type, value) {
        case (.list(let item), .array(let items)):
            for (index, element) in items.enumerated() {
                guard problems.count < maximumProblems else { return }
                check(element, item, path: "\(path)[\(index + 1)]", into: &problems, &budget)
            }
        case (.table(let schema), .table(let fields)):
            schema.check(fields, prefix: path + ".", into: &problems, &budget)
        default:
            return
        }
    }

    /// The kind of a value, as ``ContextProblem/found`` names it.
    private static func kind(of value: RuleValue) -> String {
        switch value {
        case .nil: "nil"
        case .bool: "bool"
        case .int: "int"
        case .double: "number"
        case .string: "string"
        case .bytes: "bytes"
        case .array: "list"
        case .table: "table"
        }
    }
}
