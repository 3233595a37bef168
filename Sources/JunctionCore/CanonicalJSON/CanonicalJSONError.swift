/// JSON that cannot be written canonically, or read back into a bundle's parts: what is
/// wrong and where — a byte offset for text that is not JSON, a path such as
/// `routes[3].params[0].type` for JSON that does not describe what it should.
///
/// A signed artifact can still come from a buggy builder, so every message names its place.
public struct CanonicalJSONError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The document, as the caller named it (`routes.json`).
    public var file: String
    /// Where in it: `byte 17`, `routes[3].pattern`, or empty for the whole document.
    public var place: String
    /// What is wrong.
    public var message: String

    /// Creates an error.
    /// - Parameters:
    ///   - file: The document.
    ///   - place: Where in it.
    ///   - message: What is wrong.
    public init(file: String, place: String, message: String) {
        self.file = file
        self.place = place
        self.message = message
    }

    /// `routes.json: routes[3].pattern: expected text, found 12`.
    public var description: String {
        [file, place, message].filter { !$0.isEmpty }.joined(separator: ": ")
    }
}
