import Foundation
import Junction
import JunctionTooling
import Testing

/// What an app can open, as `router.capabilities(hostVersion:)` describes it and
/// `junction check --app` reads it back: the exact JSON, round trips, and every way a
/// file can be refused, with the file and the member named.
@Suite struct AppCapabilitiesTests {
    static let sixOh = """
        {
          "dispatchers": [
            "flutter",
            "https"
          ],
          "format_version": 1,
          "host_version": "6.0.0",
          "pages": [
            "ProfilePage",
            "home",
            "junction.back",
            "junction.tab",
            "moments"
          ],
          "tasks": [
            "pay",
            "share"
          ]
        }

        """

    @MainActor
    @Test func aRouterDescribesWhatIsRegisteredAsExactJSON() throws {
        let router = try Router(routes: RouteTable(routes: [Route(name: "home", pattern: "myapp://home")]))
        for page in ["moments", "ProfilePage", "home"] { router.register(page: page) { _ in page } }
        router.register(task: "share") { _ in nil }
        router.register(asyncTask: "pay") { _ in nil }
        router.register(dispatcher: "HTTPS") { _ in .handled() }
        router.register(dispatcher: "flutter") { _ in .handled() }
        router.register(dispatcher: "wxmp") { _ in .handled() }
        router.removeDispatcher("wxmp")
        let capabilities = router.capabilities(hostVersion: SemanticVersion(6))
        #expect(capabilities.json() == Self.sixOh)
        #expect(capabilities.opens(target: "share") && capabilities.opens(target: "home"))
        #expect(!capabilities.opens(target: "LivePage"))
        #expect(capabilities.dispatches(scheme: "HTTPS") && !capabilities.dispatches(scheme: "wxmp"))
    }

    @Test func anAppWithNothingRegisteredHasEmptyLists() {
        #expect(
            AppCapabilities(hostVersion: SemanticVersion(5, 2, 1, build: ["77"])).json() == """
                {
                  "dispatchers": [],
                  "format_version": 1,
                  "host_version": "5.2.1+77",
                  "pages": [],
                  "tasks": []
                }

                """)
    }

    @Test func itsJSONReadsBackToTheSameCapabilities() throws {
        let capabilities = AppCapabilities(
            hostVersion: SemanticVersion(6, 1, 0, preRelease: ["beta", "2"]),
            pages: ["LivePage", "页面", "with \"quotes\"\n"], tasks: ["share"], dispatchers: ["tp", "wxmp"])
        let read = try AppCapabilities(json: Array(capabilities.json().utf8))
        #expect(read == capabilities)
        #expect(read.json() == capabilities.json())
        #expect(try AppCapabilities(json: Array(Self.sixOh.utf8)).json() == Self.sixOh)
    }

    @Test func itRoundTripsThroughCodable() throws {
        let capabilities = AppCapabilities(
            hostVersion: SemanticVersion(6), pages: ["home", "ProfilePage"], tasks: ["share"], dispatchers: ["https"])
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let data = try encoder.encode(capabilities)
        #expect(
            String(decoding: data, as: UTF8.self)
                == #"{"dispatchers":["https"],"format_version":1,"host_version":"6.0.0","pages":["ProfilePage","home"],"tasks":["share"]}"#
        )
        #expect(try JSONDecoder().decode(AppCapabilities.self, from: data) == capabilities)
        #expect(try JSONDecoder().decode(AppCapabilities.self, from: Data(Self.sixOh.utf8)).json() == Self.sixOh)
    }

    @Test(arguments: [
        (#"{"format_version": 1, "host_version": "6.x", "pages": [], "tasks": [], "dispatchers": []}"#, "host_version"),
        (#"{"format_version": 1, "host_version": "6.0", "pages": [1], "tasks": [], "dispatchers": []}"#, "pages"),
        (
            #"{"format_version": 1, "host_version": "6.0", "pages": [], "tasks": [], "dispatchers": ["A"]}"#,
            "dispatchers"
        ),
        (
            #"{"format_version": 2, "host_version": "6.0", "pages": [], "tasks": [], "dispatchers": []}"#,
            "format_version"
        ),
        (#"{"format_version": 1, "host_version": "6.0", "pages": [], "tasks": [], "dispatchers": [], "x": 1}"#, "x"),
        (
            #"{"format_version": 1, "host_version": "6.0", "pages": ["a", "a"], "tasks": [], "dispatchers": []}"#,
            "pages"
        ),
    ])
    func decodingChecksWhatReadingChecks(json: String, member: String) {
        #expect {
            try JSONDecoder().decode(AppCapabilities.self, from: Data(json.utf8))
        } throws: { error in
            guard case DecodingError.dataCorrupted(let context)? = error as? DecodingError else {
                return member == "pages" && error is DecodingError  // a type mismatch
            }
            return context.codingPath.last?.stringValue == member
        }
    }

    /// One document that is refused, and the error's text.
    struct Refusal: Sendable, CustomTestStringConvertible {
        var name: String
        var json: String
        var error: String

        var testDescription: String { name }
    }

    static let refusals: [Refusal] = [
        Refusal(
            name: "text that is not JSON", json: #"{"format_version": 1,"#,
            error: "app.json: byte 21: expected a key in double quotes"),
        Refusal(
            name: "a trailing comma", json: #"{"format_version": 1,}"#,
            error: "app.json: byte 21: a trailing comma before }"),
        Refusal(
            name: "a key twice",
            json: #"{"format_version": 1, "format_version": 1}"#,
            error: #"app.json: byte 22: the key "format_version" appears twice in one object"#),
        Refusal(
            name: "an array for the document", json: "[]",
            error: "app.json: the document: expected the capabilities of an app (an object), found an array"),
        Refusal(
            name: "no format version", json: #"{"host_version": "6.0.0"}"#,
            error: #"app.json: the document: missing "format_version""#),
        Refusal(
            name: "a format version as text", json: #"{"format_version": "1"}"#,
            error: #"app.json: format_version: expected an integer, found text "1""#),
        Refusal(
            name: "a newer format", json: #"{"format_version": 2}"#,
            error: "app.json: format_version: 2 is newer than this Junction reads (1); update junction"),
        Refusal(
            name: "no format at all", json: #"{"format_version": 0}"#,
            error: "app.json: format_version: 0 is no format; this Junction reads 1"),
        Refusal(
            name: "no host version", json: #"{"format_version": 1, "pages": []}"#,
            error: #"app.json: the document: missing "host_version""#),
        Refusal(
            name: "a host version as a number", json: #"{"format_version": 1, "host_version": 6}"#,
            error: "app.json: host_version: expected text, found 6"),
        Refusal(
            name: "a host version that is not a version", json: #"{"format_version": 1, "host_version": "6..0"}"#,
            error:
                #"app.json: host_version: "6..0" is not a version: expected a number at byte 3, found "."; versions read like 6.2, v6.0.1, 6.0.1-beta.2 or 6.0.1 (1234)"#
        ),
        Refusal(
            name: "no pages", json: #"{"format_version": 1, "host_version": "6.0.0", "tasks": [], "dispatchers": []}"#,
            error: #"app.json: the document: missing "pages""#),
        Refusal(
            name: "pages as an object",
            json: #"{"format_version": 1, "host_version": "6.0.0", "pages": {}, "tasks": [], "dispatchers": []}"#,
            error: "app.json: pages: expected an array, found an object"),
        Refusal(
            name: "a page that is a number",
            json:
                #"{"format_version": 1, "host_version": "6.0.0", "pages": ["home", 7], "tasks": [], "dispatchers": []}"#,
            error: "app.json: pages[1]: expected text, found 7"),
        Refusal(
            name: "a task without a name",
            json: #"{"format_version": 1, "host_version": "6.0.0", "pages": [], "tasks": [""], "dispatchers": []}"#,
            error: "app.json: tasks[0]: an empty name; a page or task has a name"),
        Refusal(
            name: "a page listed twice",
            json:
                #"{"format_version": 1, "host_version": "6.0.0", "pages": ["home", "me", "home"], "tasks": [], "dispatchers": []}"#,
            error: #"app.json: pages[2]: "home" is listed twice"#),
        Refusal(
            name: "a scheme in capitals",
            json:
                #"{"format_version": 1, "host_version": "6.0.0", "pages": [], "tasks": [], "dispatchers": ["HTTPS"]}"#,
            error:
                #"app.json: dispatchers[0]: "HTTPS" is not a scheme in lower case (a letter, then letters, digits, "+", "-" or ".")"#
        ),
        Refusal(
            name: "a scheme with its colon",
            json: #"{"format_version": 1, "host_version": "6.0.0", "pages": [], "tasks": [], "dispatchers": ["tp:"]}"#,
            error:
                #"app.json: dispatchers[0]: "tp:" is not a scheme in lower case (a letter, then letters, digits, "+", "-" or ".")"#
        ),
        Refusal(
            name: "an unknown member",
            json:
                #"{"format_version": 1, "host_version": "6.0.0", "pages": [], "tasks": [], "dispatchers": [], "page": []}"#,
            error:
                "app.json: page: unknown member; the document has dispatchers, format_version, host_version, pages, tasks"
        ),
        // The capabilities fuzz target's finding: a member named like a byte offset read as
        // one ("app.json: byte -922337203685580: unknown member"); such a key is quoted.
        Refusal(
            name: "an unknown member whose name reads like a place",
            json:
                #"{"format_version": 1, "host_version": "6.0.0", "pages": [], "tasks": [], "dispatchers": [], "byte -9": 1}"#,
            error:
                #"app.json: ["byte -9"]: unknown member; the document has dispatchers, format_version, host_version, pages, tasks"#
        ),
        Refusal(
            name: "a name longer than the limit",
            json:
                #"{"format_version": 1, "host_version": "6.0.0", "pages": [""#
                + String(repeating: "p", count: 1025) + #""], "tasks": [], "dispatchers": []}"#,
            error: "app.json: byte 57: a string longer than 1024 bytes"),
        Refusal(
            name: "nesting deeper than a list", json: #"{"format_version": 1, "pages": [["home"]]}"#,
            error: "app.json: byte 32: nests deeper than 2 arrays and objects"),
    ]

    @Test(arguments: refusals)
    func aDocumentThatIsNotCapabilitiesIsRefusedNamingTheFileAndTheMember(_ refusal: Refusal) {
        #expect {
            try AppCapabilities(json: Array(refusal.json.utf8), file: "app.json")
        } throws: { error in
            "\(error)" == refusal.error
        }
    }

    @Test func aFileLongerThanTheLimitIsRefusedBeforeItIsRead() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("caps-\(UUID().uuidString).json").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        // A valid document, padded with whitespace past the limit.
        let padded = Self.sixOh + String(repeating: " ", count: AppCapabilities.maximumJSONBytes)
        try padded.write(toFile: path, atomically: true, encoding: .utf8)
        #expect {
            try AppCapabilities(contentsOfFile: path)
        } throws: { error in
            "\(error)" == "\(path): the file is longer than 1048576 bytes, the most a capabilities file has"
        }
        try Self.sixOh.write(toFile: path, atomically: true, encoding: .utf8)
        #expect(try AppCapabilities(contentsOfFile: path).json() == Self.sixOh)
    }

    @Test func aFileThatCannotBeReadIsRefusedNamingIt() {
        #expect {
            try AppCapabilities(contentsOfFile: "/nonexistent/app-6.0.json")
        } throws: { error in
            "\(error)" == "/nonexistent/app-6.0.json: no such file"
        }
        #expect {
            try AppCapabilities(contentsOfFile: FileManager.default.temporaryDirectory.path)
        } throws: { error in
            "\(error)" == "\(FileManager.default.temporaryDirectory.path): a folder, not a capabilities file"
        }
    }
}
