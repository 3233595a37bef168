import Testing

@testable import JunctionCore

@Suite struct NearestNameTests {
    @Test(arguments: [
        ("rolout", ["rollout", "redirect", "reject"], "rollout"),
        ("logni", ["login", "anti_addiction"], "login"),
        ("Anti-Addiction", ["login", "anti_addiction"], "anti_addiction"),
        ("pusj", ["internal", "push", "universal_link", "h5", "external"], "push"),
        ("universal-link", ["internal", "push", "universal_link"], "universal_link"),
        ("walet", ["wallet", "wall"], "wallet"),
        ("verison", ["version", "person"], "version"),
        ("x", ["y", "xyz"], "y"),
        ("checkout", ["checkout.v2", "chekout"], "chekout"),
    ])
    func findsTheNameMeant(written: String, candidates: [String], meant: String) {
        #expect(NearestName.nearest(to: written, among: candidates) == meant)
    }

    @Test(arguments: [
        ("banana", ["rollout", "redirect"]),
        ("ab", ["xy"]),
        ("login", ["login"]),
        ("", ["a"]),
        ("orders", []),
    ])
    func suggestsNothingFar(written: String, candidates: [String]) {
        #expect(NearestName.nearest(to: written, among: candidates) == nil)
        #expect(NearestName.suggestion(for: written, among: candidates) == "")
    }

    @Test func prefersTheNearestThenTheFirst() {
        #expect(NearestName.nearest(to: "abcd", among: ["abxy", "abcx"]) == "abcx")
        #expect(NearestName.nearest(to: "abcd", among: ["abcx", "abcy"]) == "abcx")
        #expect(NearestName.suggestion(for: "pusj", among: ["push"]) == "; did you mean \"push\"?")
    }

    /// Names beyond the length limit are compared by folded spelling only, so a long
    /// hostile name costs one pass, not a quadratic table.
    @Test func boundsTheWorkOnLongNames() {
        let long = String(repeating: "a", count: 100_000)
        #expect(NearestName.nearest(to: long, among: [long + "b", "a"]) == nil)
        #expect(NearestName.nearest(to: long.uppercased(), among: [long]) == long)
    }
}
