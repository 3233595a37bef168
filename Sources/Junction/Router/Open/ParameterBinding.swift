import JunctionCore

/// Checks a decision's parameters against the route's declarations before a target
/// sees them: required ones present, declared ones converted to their type.
enum ParameterBinding {
    /// The target's parameters, or the error the caller gets. Undeclared query items are
    /// included as text; rules see only declared ones (`req.query` has them all).
    /// - Parameters:
    ///   - decision: An `open` decision (it has a match).
    ///   - objects: The caller's parameters that are not rule values.
    static func bind(_ decision: Decision, objects: [String: any Sendable]) throws(RouterError) -> RouteParameters {
        var values = decision.params
        guard let match = decision.match else { return RouteParameters(values: values, objects: objects) }
        let route = match.route
        // Query items no declaration names still reach the target, as text, below everything else.
        for item in match.query where values[item.name] == nil {
            values[item.name] = .string(item.value)
        }
        let url = decision.uri?.string ?? decision.request.url
        for declaration in route.parameters {
            guard let value = values[declaration.name] else {
                if declaration.isRequired {
                    let how =
                        objects[declaration.name] == nil
                        ? "pass it in the URL or in params"
                        : "it was passed as \(type(of: objects[declaration.name]!)), which is not a rule value"
                    throw RouterError(
                        .missingParameter,
                        "route \"\(route.name)\" requires parameter \"\(declaration.name)\" (\(declaration.type.rawValue)); \(how)",
                        url: url, route: route.name)
                }
                continue
            }
            guard let converted = convert(value, to: declaration.type) else {
                throw RouterError(
                    .wrongParameterType,
                    "parameter \"\(declaration.name)\" of route \"\(route.name)\" must be \(declaration.type.rawValue), got \(value.compactDescription)",
                    url: url, route: route.name)
            }
            values[declaration.name] = converted
        }
        return RouteParameters(values: values, objects: objects)
    }

    /// `value` as a value of `type`: text is converted as in URLs, numbers and flags as text
    /// for strings, integers widen to doubles; tables, arrays and bytes never convert.
    static func convert(_ value: RuleValue, to type: ParameterType) -> RuleValue? {
        switch (value, type) {
        case (.string(let text), _):
            return type.convert(text).map(RuleValue.init)
        case (.int, .int), (.double, .double), (.bool, .bool):
            return value
        case (.int(let number), .double):
            return .double(Double(number))
        case (.double(let number), .int):
            return Int64(exactly: number).map(RuleValue.int)
        case (.int(let number), .bool):
            return number == 0 || number == 1 ? .bool(number == 1) : nil
        case (.int, .string), (.double, .string), (.bool, .string):
            return .string(value.compactDescription)
        default:
            return nil
        }
    }
}
