import Foundation
import JunctionShipping

/// `agent --channel URL`: a channel pointer's URL as ``ChannelLocation`` takes it, `https`,
/// `http` or `file`, ending in `/<folder>/<channel>.json`.
struct ChannelURLArgument: OptionValue, Hashable, CustomStringConvertible {
    /// The pointer's URL.
    let url: URL

    init(parsing text: String) throws(OptionValueError) {
        guard let url = URL(string: text) else { throw OptionValueError("not a URL") }
        do { _ = try ChannelLocation(url) } catch { throw OptionValueError(error.message) }
        self.url = url
    }

    /// The channel's name: the pointer's file name without `.json`.
    var channelName: String { String(url.lastPathComponent.dropLast(".json".count)) }

    /// The URL.
    var description: String { url.absoluteString }
}
