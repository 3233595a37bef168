import JunctionCore
import Testing

@testable import JunctionCLI

/// `agent --host-version`: a version as `version.compare` reads it; a refusal says where it stops.
@Suite struct HostVersionArgumentTests {
    @Test(arguments: [
        ("6.2", SemanticVersion(6, 2)), ("v6.0.1", SemanticVersion(6, 0, 1)), ("999.0.0", SemanticVersion(999)),
    ])
    func readsAVersion(text: String, version: SemanticVersion) throws {
        #expect(try HostVersionArgument(parsing: text).version == version)
    }

    @Test(arguments: [
        (
            "six",
            #""six" is not a version: expected a number at byte 1, found "s"; versions read like 6.2, v6.0.1, 6.0.1-beta.2 or 6.0.1 (1234)"#
        ),
        ("", "\"\" is not a version: "),
    ])
    func refusesAnythingElseSayingWhereItStops(text: String, reasonPrefix: String) {
        #expect {
            try HostVersionArgument(parsing: text)
        } throws: { error in
            (error as? OptionValueError)?.reason.hasPrefix(reasonPrefix) == true
        }
    }
}
