import Testing

/// One row of a route-regex table: a regex, a segment and whether it matches whole.
struct RegexCase: CustomTestStringConvertible, Sendable {
    let regex: String
    let segment: String
    let matches: Bool

    init(_ regex: String, _ segment: String, _ matches: Bool) {
        self.regex = regex
        self.segment = segment
        self.matches = matches
    }

    var testDescription: String { "/\(regex)/ \(matches ? "matches" : "does not match") \(segment.debugDescription)" }
}
