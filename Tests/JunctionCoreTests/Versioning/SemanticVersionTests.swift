import JunctionCore
import Testing

@Suite struct SemanticVersionTests {
    @Test(arguments: [
        ("5.2.0", "5.10.1"),  // numeric, not textual: 2 < 10
        ("1.0.0-alpha", "1.0.0-alpha.1"),  // §11 example, in order
        ("1.0.0-alpha.1", "1.0.0-alpha.beta"),
        ("1.0.0-alpha.beta", "1.0.0-beta"),
        ("1.0.0-beta", "1.0.0-beta.2"),
        ("1.0.0-beta.2", "1.0.0-beta.11"),
        ("1.0.0-beta.11", "1.0.0-rc.1"),
        ("1.0.0-rc.1", "1.0.0"),
        ("1.9.9", "2"),
        ("5.2", "5.2.1"),
    ])
    func ordersAsSemanticVersioningSays(_ lower: String, _ higher: String) throws {
        let a = try #require(SemanticVersion(lower))
        let b = try #require(SemanticVersion(higher))
        #expect(a < b)
        #expect(!(b < a))
    }

    @Test(arguments: [("5", "5.0.0"), ("5.2", "5.2.0"), ("1.0.0+build.5", "1.0.0+other"), ("0.0.0", "0.0")])
    func treatsMissingPartsAsZeroAndIgnoresBuildMetadata(_ a: String, _ b: String) {
        #expect(SemanticVersion(a) == SemanticVersion(b))
    }

    @Test(arguments: [
        "", "v1.0.0", "1.0.0.0", "01.2.3", "1.02.3", "1..3", "1.2.3-", "1.2.3-01", "1.2.3-a..b", "1.2.3+", "a.b.c",
        "-1.0.0", "1.2.3 ",
    ])
    func refusesWhatIsNotAVersion(_ text: String) {
        #expect(SemanticVersion(text) == nil)
    }

    @Test func printsItsCanonicalForm() {
        #expect(SemanticVersion("5.2")?.description == "5.2.0")
        #expect(SemanticVersion("1.0.0-rc.1+exp.sha.5114f85")?.description == "1.0.0-rc.1+exp.sha.5114f85")
    }
}
