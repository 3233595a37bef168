import Foundation
import Junction
import Testing

@testable import JunctionCLI

/// The example app's capabilities file is what the demo's sample app registers: the file
/// `junction check rules/example --app` reads cannot drift from the app it describes.
@MainActor
@Suite struct SampleAppCapabilitiesTests {
    @Test func theExampleAppsCapabilitiesFileIsWhatTheSampleAppRegisters() throws {
        let example = CLIRunner.repositoryRoot.appendingPathComponent("rules/example")
        let loaded = try LoadedBundle.load(example.path, showLogs: false).get()
        let app = try SampleApp(bundle: loaded.bundle, context: .empty) { _ in }
        let file = try String(contentsOf: example.appendingPathComponent("app-6.0.json"), encoding: .utf8)
        #expect(app.router.capabilities(hostVersion: SemanticVersion(6)).json() == file)
    }
}
