/// Bounds on what findings about code repeat: a bundle with thousands of mistakes (or a
/// hostile one) gets a readable report whose size does not grow with it.
enum FindingLimits {
    /// The most findings of one code listed for one file; the rest are counted in one more.
    static let perFile = 20

    /// `findings`, all of one code, with at most ``perFile`` for each file; each file
    /// with more gets, after its first ``perFile``, one finding at the next one's place
    /// that counts the rest.
    /// - Parameters:
    ///   - findings: Findings of one code, in the order to list them.
    ///   - what: What they are about, plural: `uses of undefined globals`.
    static func limited(_ findings: [Finding], _ what: String) -> [Finding] {
        var kept: [Finding] = []
        var counts: [String: Int] = [:]
        var overflow: [String: (first: Finding, count: Int)] = [:]
        var order: [String] = []
        for finding in findings {
            let file = finding.location?.file ?? ""
            counts[file, default: 0] += 1
            if counts[file, default: 0] <= perFile {
                kept.append(finding)
            } else if let existing = overflow[file] {
                overflow[file] = (existing.first, existing.count + 1)
            } else {
                overflow[file] = (finding, 1)
                order.append(file)
            }
        }
        for file in order {
            guard let (first, count) = overflow[file] else { continue }
            kept.append(
                Finding(
                    first.severity, first.code,
                    "\(count) more \(what) in this file \(count == 1 ? "is" : "are") not listed — fix the ones above, "
                        + "then check again",
                    at: first.location))
        }
        return kept
    }
}
