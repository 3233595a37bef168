import Testing

@testable import JunctionCLI

/// `agent --install-id`: 1 to 128 visible ASCII characters.
@Suite struct InstallIDArgumentTests {
    @Test(arguments: ["device-1", "!", "~", String(repeating: "x", count: 128)])
    func readsAnInstallID(text: String) throws {
        #expect(try InstallIDArgument(parsing: text).id == text)
    }

    @Test(arguments: ["", "a b", "tab\there", "é", "new\nline", String(repeating: "x", count: 129)])
    func refusesAnythingElseSayingWhatItTakes(text: String) {
        #expect(throws: OptionValueError("not 1 to 128 visible ASCII characters")) {
            try InstallIDArgument(parsing: text)
        }
    }
}
