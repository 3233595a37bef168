/// A route pattern's expansions as the rest of the package sees them, each parameter with
/// the type its route declares: what static analysis (`junction check`) builds sample
/// URLs from. The matcher itself reads ``RoutePattern``.
package struct PatternStructure: Sendable, Hashable {
    /// One segment of an expansion.
    package enum Segment: Sendable, Hashable {
        /// Exactly this decoded text.
        case constant(String)
        /// `:name` or `:name(regex)`, with the type its route declares (`.string` when none).
        case parameter(name: String, type: ParameterType, regex: String?)
        /// `*`: any one non-empty segment.
        case wildcard
        /// `**`: every remaining segment, zero or more; only last.
        case catchAll
    }

    /// The scheme in lower case, or `nil` for a global pattern.
    package let scheme: String?
    /// The origin host in lower case, or `nil` when there is none or it is read as the
    /// first path segment.
    package let host: String?
    /// Every expansion of the optional groups; the first leaves every group out.
    package let expansions: [[Segment]]

    /// The structure of a parsed pattern.
    /// - Parameters:
    ///   - pattern: The parsed pattern.
    ///   - parameters: The route's parameter declarations, for the parameters' types.
    init(_ pattern: RoutePattern, parameters: [ParameterDeclaration]) {
        scheme = pattern.scheme
        host = pattern.host
        expansions = pattern.expansions.map { expansion in
            expansion.map { segment in
                switch segment {
                case .constant(let text): return .constant(text)
                case .parameter(let name, let regex):
                    let type = parameters.first { $0.name == name }?.type ?? .string
                    return .parameter(name: name, type: type, regex: regex)
                case .wildcard: return .wildcard
                case .catchAll: return .catchAll
                }
            }
        }
    }
}
