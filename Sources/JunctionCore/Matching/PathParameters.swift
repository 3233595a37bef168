/// The parameters a match captured from the path, in pattern order, decoded once.
/// A `**` capture is under the name `"**"`: the remaining segments joined with `/`.
public struct PathParameters: Sendable, Hashable, RandomAccessCollection, CustomStringConvertible {
    /// One captured parameter.
    public struct Parameter: Sendable, Hashable {
        /// The name from the pattern (`id` for `:id`, `**` for `**`).
        public var name: String
        /// The decoded segment text.
        public var value: String
    }

    private var storage: [Parameter]

    /// Creates parameters from name-value pairs, in order.
    /// - Parameter pairs: The parameters.
    public init(_ pairs: [(String, String)] = []) {
        storage = pairs.map { Parameter(name: $0.0, value: $0.1) }
    }

    init(_ parameters: [Parameter]) {
        storage = parameters
    }

    /// The first index.
    public var startIndex: Int { storage.startIndex }
    /// One past the last index.
    public var endIndex: Int { storage.endIndex }
    /// The parameter at `position`.
    public subscript(position: Int) -> Parameter { storage[position] }

    /// The value captured for `name`, or `nil`.
    public subscript(name: String) -> String? {
        storage.first { $0.name == name }?.value
    }

    /// The parameters as a dictionary.
    public var dictionary: [String: String] {
        Dictionary(storage.map { ($0.name, $0.value) }, uniquingKeysWith: { first, _ in first })
    }

    /// `id=42, tab=posts`.
    public var description: String {
        storage.map { "\($0.name)=\($0.value)" }.joined(separator: ", ")
    }
}
