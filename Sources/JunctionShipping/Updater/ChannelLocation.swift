public import Foundation

/// Where a channel's files are: its pointer at the URL the app gives
/// (`…/channels/stable.json`), each artifact beside the channels folder at
/// `…/objects/<sha256>.jbundle` — the layout `junction bundle publish` writes. The query and
/// fragment of the channel URL are not carried over to objects, which are immutable and
/// cacheable forever.
public struct ChannelLocation: Sendable, Hashable, CustomStringConvertible {
    /// The channel pointer's URL.
    public let pointer: URL
    /// The folder objects are in: the channel folder's sibling `objects/`.
    private let objects: URLComponents

    /// The schemes a channel may use.
    public static let schemes: Set<String> = ["https", "http", "file"]

    /// A channel's location.
    /// - Parameter pointer: The channel pointer's URL: `https`, `http` or `file`, with a path
    ///   of at least `/<folder>/<name>.json`.
    /// - Throws: ``UpdateTransportError`` (`unsupportedURL`) saying what is wrong.
    public init(_ pointer: URL) throws(UpdateTransportError) {
        guard let components = URLComponents(url: pointer, resolvingAgainstBaseURL: true),
            let scheme = components.scheme?.lowercased(), Self.schemes.contains(scheme)
        else {
            throw UpdateTransportError(
                .unsupportedURL, "\(pointer.absoluteString.prefix(200)): a channel URL is https, http or file")
        }
        var segments = components.percentEncodedPath.split(separator: "/", omittingEmptySubsequences: false)
        guard segments.count >= 3, let name = segments.last, name.hasSuffix(".json"), name.count > 5,
            segments[segments.count - 2].isEmpty == false
        else {
            throw UpdateTransportError(
                .unsupportedURL,
                "\(pointer.absoluteString.prefix(200)): a channel URL ends in /<folder>/<channel>.json "
                    + "(…/channels/stable.json), with objects/ beside the folder")
        }
        segments.removeLast(2)
        var objects = components
        objects.query = nil
        objects.fragment = nil
        objects.percentEncodedPath = segments.joined(separator: "/") + "/objects/"
        self.pointer = pointer
        self.objects = objects
    }

    /// The URL of the artifact whose SHA-256 is `sha256` (64 lowercase hex digits, from a
    /// verified pointer).
    public func object(_ sha256: String) -> URL {
        var components = objects
        components.percentEncodedPath += sha256 + ".jbundle"
        // A verified pointer's hash is 64 hex digits: the URL is always valid.
        return components.url!
    }

    /// The pointer's URL.
    public var description: String { pointer.absoluteString }
}
