@testable import JunctionCore
import Testing

/// Regexes that take a backtracking matcher exponential (or high-polynomial) time, on
/// 10,000-character segments. Time is not measured; the matcher's own count of NFA steps
/// is held to the linear bound: (scalars + 1) × program size.
@Suite struct RouteRegexLinearTimeTests {
    static let aaa = String(repeating: "a", count: 10_000)

    @Test(arguments: [
        RegexCase("(a+)+b", aaa, false),
        RegexCase("(a+)+b", aaa + "b", true),
        RegexCase("(a|a)*b", aaa, false),
        RegexCase("(a*)*b", aaa, false),
        RegexCase("(a|aa)+$", aaa, true),
        RegexCase("(a|aa)+c", aaa, false),
        RegexCase("(.*a){12}", aaa, true),
        RegexCase("(.*a){12}", aaa + "b", false),
        RegexCase("([ab]?){30}a{30}", aaa, false),
        RegexCase("([ab]?){30}a{30}", String(repeating: "a", count: 30), true),
        RegexCase("(a?){500}a{500}", String(repeating: "a", count: 500), true),
        RegexCase(#"(\w+\s?)+$"#, String(repeating: "word ", count: 2_000) + "!", false),
        RegexCase("(x+x+)+y", String(repeating: "x", count: 10_000), false),
        RegexCase("(é|e\u{301}|.)*😀", String(repeating: "é", count: 10_000), false),
        RegexCase(".*.*.*=.*", String(repeating: "é", count: 10_000), false),
    ])
    func staysWithinTheLinearBound(_ row: RegexCase) throws {
        let regex = try RouteRegex(row.regex)
        let (matches, steps) = regex.measuredMatch(row.segment)
        #expect(matches == row.matches)
        let bound = (row.segment.unicodeScalars.count + 1) * regex.programSize
        #expect(steps <= bound, "\(steps) steps, bound \(bound)")
    }

    /// `:p((a+)+b)` took 30 s for 20 `a`s when a parameter regex was Swift's `Regex`; a
    /// route table now turns 10,000 away (and takes 9,999 and a `b`) in linear time.
    @Test func matchesARouteWithAPathologicalRegexInLinearTime() throws {
        let table = try RouteTable.make([("slow", "myapp://k/:p((a+)+b)/end"), ("any", "myapp://k/*/end")])
        #expect(try table.match("myapp://k/\(Self.aaa)/end")?.route.name == "any")
        let hit = try table.match("myapp://k/\(Self.aaa.dropLast())b/end")
        #expect(hit?.route.name == "slow")
        #expect(hit?.parameters["p"]?.count == 10_000)
        let rejected = table.explain(try URI("myapp://k/\(Self.aaa)/end")).rejections
        #expect(rejected.count == 1)
        #expect(
            rejected.first?.hasPrefix(
                #"route "slow" (myapp://k/:p((a+)+b)/end): parameter "p" must match /(a+)+b/, got "aaa"#) == true)
    }
}
