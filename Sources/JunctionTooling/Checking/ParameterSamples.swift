import JunctionCore

/// The values sample URLs fill a pattern's parameters with: for each declared type a few
/// that convert, for a regex what ``RegexSampler`` finds and the regex accepts (matched
/// as routes match it, by ``RouteRegex``, so a check takes linear time too), and for
/// unconstrained parameters, `*` and `**` a pool chosen by the check.
struct ParameterSamples: Sendable {
    /// Values for a parameter nothing constrains, and for `*`.
    let unconstrained: [String]

    /// Values that no declared type accepts and that each escape some common class
    /// (letters, word characters, no spaces), so a string parameter tried with them
    /// loses only to siblings that really take every value.
    static let distinctive = ParameterSamples(unconstrained: ["x7q", "~x.7-_", "x y!"])

    /// ``distinctive`` and one value for each kind of constrained parameter in `tables`,
    /// so a redirect's placeholder can carry what some route's constraint wants.
    /// - Parameter tables: The route tables whose constraints matter.
    /// - Returns: The samples.
    static func broad(covering tables: [RouteTable]) -> ParameterSamples {
        var pool = distinctive.unconstrained
        var seen = Set<String>()
        for table in tables {
            for index in table.routes.indices {
                guard let structure = table.structure(ofRouteAt: index) else { continue }
                for case .parameter(_, let type, let regex) in structure.expansions.joined()
                where type != .string || regex != nil {
                    guard seen.insert("\(type.rawValue) \(regex ?? "")").inserted,
                        let value = distinctive.values(type: type, regex: regex)?.first,
                        !pool.contains(value)
                    else { continue }
                    pool.append(value)
                }
            }
        }
        return ParameterSamples(unconstrained: pool)
    }

    /// Values of a parameter that its type and regex accept.
    /// - Parameters:
    ///   - type: The declared type.
    ///   - regex: The pattern's regex for it, if any.
    /// - Returns: Decoded values, or `nil` when none could be found.
    func values(type: ParameterType, regex: String?) -> [String]? {
        let typed = type == .string ? unconstrained : Self.values(of: type)
        guard let regex else { return typed }
        guard let compiled = try? RouteRegex(regex) else { return nil }
        var accepted: [String] = []
        for value in RegexSampler.candidates(for: regex) + typed
        where !value.isEmpty && !accepted.contains(value) && type.convert(value) != nil && compiled.matchesWhole(value)
        {
            accepted.append(value)
        }
        return accepted.isEmpty ? nil : accepted
    }

    /// Path text for `**`: zero, one and two segments, percent-encoded.
    var catchAll: [String] {
        let first = PercentEncoding.encode(unconstrained[0])
        let second = PercentEncoding.encode(unconstrained.count > 1 ? unconstrained[1] : unconstrained[0])
        return ["", first, first + "/" + second]
    }

    /// Values that convert to `type`.
    private static func values(of type: ParameterType) -> [String] {
        switch type {
        case .string: return distinctive.unconstrained
        case .int: return ["7", "-12"]
        case .double: return ["3.5", "-1e3"]
        case .bool: return ["true", "no"]
        case .uuid: return ["0f8fad5b-d9cb-469f-a165-70867728950e", "0F8FAD5B-D9CB-469F-A165-70867728950E"]
        }
    }
}
