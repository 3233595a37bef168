import JunctionCore

/// URLs that one route of a table matches, one for each combination of sample values of
/// each expansion of its pattern: what the checks try in place of every URL.
///
/// Each URL is verified: the table lists the route among its matches. A set is
/// complete when every expansion could be sampled and no combination was left out;
/// checks that report the absence of something only trust complete sets.
struct SampleURLs {
    /// The URLs, expansion by expansion.
    private(set) var urls: [URI] = []
    /// Whether every expansion was sampled with every combination of its values.
    private(set) var isComplete = true

    /// The most URLs one expansion is sampled with.
    static let limitPerExpansion = 512

    /// Samples route `index` of `table`.
    /// - Parameters:
    ///   - index: The route's position in the table.
    ///   - table: The table.
    ///   - samples: The values to fill parameters with.
    init(ofRouteAt index: Int, in table: RouteTable, samples: ParameterSamples) {
        guard let structure = table.structure(ofRouteAt: index) else {
            isComplete = false
            return
        }
        expansions: for expansion in structure.expansions {
            var choices: [[String]] = []
            for segment in expansion {
                switch segment {
                case .constant(let text):
                    choices.append([PercentEncoding.encode(text)])
                case .parameter(_, let type, let regex):
                    guard let values = samples.values(type: type, regex: regex) else {
                        isComplete = false
                        continue expansions
                    }
                    choices.append(values.map(PercentEncoding.encode))
                case .wildcard:
                    choices.append(samples.unconstrained.map(PercentEncoding.encode))
                case .catchAll:
                    choices.append(samples.catchAll)
                }
            }
            let (paths, truncated) = Self.combinations(choices)
            if truncated { isComplete = false }
            for path in paths {
                let uri = Self.spellings(of: path, structure).lazy
                    .compactMap { try? URI($0) }
                    .first { uri in table.matches(uri).contains { $0.routeIndex == index } }
                if let uri { urls.append(uri) } else { isComplete = false }
            }
        }
    }

    /// Every path made of one choice per segment, in order, up to the limit.
    private static func combinations(_ choices: [[String]]) -> (paths: [String], truncated: Bool) {
        var paths = [[String]()]
        for options in choices {
            var extended: [[String]] = []
            for path in paths {
                for option in options {
                    guard extended.count < limitPerExpansion else { return (pathTexts(extended), true) }
                    extended.append(path + [option])
                }
            }
            paths = extended
        }
        return (pathTexts(paths), false)
    }

    private static func pathTexts(_ pieces: [[String]]) -> [String] {
        pieces.map { $0.filter { !$0.isEmpty }.joined(separator: "/") }
    }

    /// How a URL with `path` may be written for the pattern: with its origin; with the
    /// first segment as the host (`myapp://user/7`), else without an authority
    /// (`myapp:/user/7`) when the first segment would not be read as a path segment; or
    /// as a relative reference for a global pattern.
    private static func spellings(of path: String, _ structure: PatternStructure) -> [String] {
        if let host = structure.host {
            return [(structure.scheme.map { $0 + ":" } ?? "") + "//" + host + "/" + path]
        }
        guard let scheme = structure.scheme else { return ["/" + path] }
        return [scheme + "://" + path, scheme + ":/" + path]
    }
}
