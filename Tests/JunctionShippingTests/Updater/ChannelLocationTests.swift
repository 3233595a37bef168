import Foundation
import Junction
import JunctionShipping
import Testing

@Suite struct ChannelLocationTests {
    static let hash = String(repeating: "ab", count: 32)

    @Test(arguments: [
        ("https://cdn.example.com/junction/channels/stable.json", "https://cdn.example.com/junction/objects/"),
        ("https://cdn.example.com/channels/stable.json?token=x#f", "https://cdn.example.com/objects/"),
        ("http://127.0.0.1:8080/site/ch/beta.json", "http://127.0.0.1:8080/site/objects/"),
        ("file:///var/app/bundle/channels/stable.json", "file:///var/app/bundle/objects/"),
        ("https://cdn.example.com/a%20b/channels/stable.json", "https://cdn.example.com/a%20b/objects/"),
    ])
    func objectsLiveBesideTheChannelsFolder(channel: String, objects: String) throws {
        let location = try ChannelLocation(URL(string: channel)!)
        #expect(location.object(Self.hash).absoluteString == objects + Self.hash + ".jbundle")
        #expect(location.pointer.absoluteString == channel)
    }

    @Test(arguments: [
        ("ftp://example.com/channels/stable.json", "a channel URL is https, http or file"),
        ("https://cdn.example.com/stable.json", "ends in /<folder>/<channel>.json"),
        ("https://cdn.example.com/channels/stable", "ends in /<folder>/<channel>.json"),
        ("https://cdn.example.com/channels/.json", "ends in /<folder>/<channel>.json"),
        ("https://cdn.example.com//stable.json", "ends in /<folder>/<channel>.json"),
    ])
    func refusesURLsItCannotPoll(channel: String, reason: String) {
        #expect {
            _ = try ChannelLocation(URL(string: channel)!)
        } throws: { error in
            guard let error = error as? UpdateTransportError else { return false }
            return error.code == .unsupportedURL && error.message.contains(reason)
        }
    }
}
