/// The kind of one of Junction's typed errors (`ArtifactError.Code`, `PointerError.Code`,
/// `StoreError.Code`, `PublishError.Code`): an open set of named values, so new kinds can be
/// added without breaking code that switches over the known ones. `Domain` is the error it
/// belongs to, so codes of two kinds of error never compare equal.
public struct ErrorCode<Domain>: Sendable, Hashable, CustomStringConvertible {
    /// The code's name as printed (`badSignature`).
    public let name: String

    /// The code named `name`: each error type declares its own codes.
    /// - Parameter name: The name, in lower camel case.
    package init(_ name: String) {
        self.name = name
    }

    /// The name, as printed before a refusal's message.
    public var description: String { name }
}
