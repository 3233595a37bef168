import JunctionCore

extension FuzzTarget {
    /// URLs from any app or push: parsed strictly and leniently, everything accepted holds
    /// together (``URIConsistency``), every refusal points inside the input, and what strict
    /// parsing accepts lenient parsing accepts too.
    static let uri = FuzzTarget(
        name: "uri",
        summary: "URI parsing: components reassemble, re-parse and resolve the same; refusals point inside the input"
    ) { bytes throws(FuzzFailure) in
        let input = String(fuzzBytes: bytes)
        let bases = [try? URI("http://a/b/c/d;p?q"), try? URI("myapp:/user/42")].compactMap(\.self)
        var problems: [String] = []
        var strictAccepted = false
        for mode in [URI.ParsingMode.strict, .lenient] {
            do throws(URIError) {
                let uri = try URI(input, mode: mode)
                if mode == .strict { strictAccepted = true }
                for base in bases {
                    problems += URIConsistency.problems(of: uri, parsedFrom: input, mode: mode, base: base)
                }
            } catch {
                if mode == .lenient, strictAccepted {
                    problems.append("lenient rejects what strict accepts: \(input.debugDescription)")
                }
                problems += URIConsistency.problems(of: error, input: input)
            }
        }
        try require(problems.isEmpty, "every URI holds together", problems.joined(separator: "; "))
    }
}
