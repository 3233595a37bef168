import Foundation
import Testing

@testable import JunctionCLI

/// `agent --channel URL`: https, http or file, ending in `/<folder>/<channel>.json`.
@Suite struct ChannelURLArgumentTests {
    @Test(arguments: [
        ("https://cdn.example.com/channels/stable.json", "stable"),
        ("http://127.0.0.1:8080/site/channels/beta.json", "beta"),
        ("file:///tmp/site/channels/canary.json", "canary"),
    ])
    func readsAChannelURLAndItsName(text: String, name: String) throws {
        let channel = try ChannelURLArgument(parsing: text)
        #expect(channel.url == URL(string: text))
        #expect(channel.channelName == name)
    }

    @Test(arguments: [
        (
            "ftp://example.com/channels/stable.json",
            "ftp://example.com/channels/stable.json: a channel URL is https, http or file"
        ),
        (
            "https://example.com/stable.json",
            "https://example.com/stable.json: a channel URL ends in /<folder>/<channel>.json (…/channels/stable.json), with objects/ beside the folder"
        ),
        (
            "https://example.com/channels/stable",
            "https://example.com/channels/stable: a channel URL ends in /<folder>/<channel>.json (…/channels/stable.json), with objects/ beside the folder"
        ),
    ])
    func refusesAnythingElseSayingWhy(text: String, reason: String) {
        #expect(throws: OptionValueError(reason)) { try ChannelURLArgument(parsing: text) }
    }
}
