/// Why a route table cannot be written as Swift: which route, and what to change.
public struct SwiftRouteCodeError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The sentence.
    public var message: String

    /// An error.
    /// - Parameter message: What is wrong and what to change.
    public init(_ message: String) {
        self.message = message
    }

    /// The message.
    public var description: String { message }
}
