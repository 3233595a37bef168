import Foundation

/// A decision-log collector's base URL (`--logs http://127.0.0.1:8181`): `http` or
/// `https` with a host; batches go to `/v1/logs/decisions` and `/v1/logs/status` under it.
struct CollectorURLArgument: OptionValue, Hashable, CustomStringConvertible {
    /// The base URL.
    let url: URL

    init(parsing text: String) throws(OptionValueError) {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
            url.host?.isEmpty == false
        else { throw OptionValueError("not an http or https URL with a host (http://127.0.0.1:8181)") }
        guard url.query == nil, url.fragment == nil else {
            throw OptionValueError("a collector's base URL has no query or fragment")
        }
        self.url = url
    }

    /// The URL.
    var description: String { url.absoluteString }
}
