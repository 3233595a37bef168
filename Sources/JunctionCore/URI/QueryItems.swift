/// The items of a query, in order, with every value of a repeated name kept.
///
/// `a=1&b&a=2&=x` holds `a=1`, `b=""` (a name without `=` has the empty value),
/// `a=2` and `""="x"`. Empty items (`a=1&&b=2`) are skipped.
public struct QueryItems: Sendable, Hashable, RandomAccessCollection, CustomStringConvertible {
    /// One `name=value` pair, both decoded.
    public struct Item: Sendable, Hashable {
        /// The decoded name.
        public var name: String
        /// The decoded value; `""` when the item had no `=`.
        public var value: String

        /// Creates an item.
        /// - Parameters:
        ///   - name: The decoded name.
        ///   - value: The decoded value.
        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    /// Every item, in order.
    public private(set) var items: [Item]

    /// Creates a query from decoded items.
    /// - Parameter items: The items, in order.
    public init(_ items: [Item] = []) {
        self.items = items
    }

    init(parsing bytes: UnsafeBufferPointer<UInt8>, plusAsSpace: Bool) {
        var items: [Item] = []
        var start = 0
        let n = bytes.count
        while start <= n {
            var end = start
            var equals = -1
            while end < n, bytes[end] != Bytes.ampersand {
                if equals < 0, bytes[end] == Bytes.equals { equals = end }
                end += 1
            }
            if end > start {
                let nameEnd = equals >= 0 ? equals : end
                let name = PercentDecoding.decodedString(
                    UnsafeBufferPointer(rebasing: bytes[start..<nameEnd]), plusAsSpace: plusAsSpace)
                let value =
                    equals >= 0
                    ? PercentDecoding.decodedString(
                        UnsafeBufferPointer(rebasing: bytes[(equals + 1)..<end]), plusAsSpace: plusAsSpace)
                    : ""
                items.append(Item(name: name, value: value))
            }
            start = end + 1
        }
        self.items = items
    }

    /// The first index.
    public var startIndex: Int { items.startIndex }
    /// One past the last index.
    public var endIndex: Int { items.endIndex }
    /// The item at `position`.
    public subscript(position: Int) -> Item { items[position] }

    /// The first value of `name`, or `nil`.
    public subscript(name: String) -> String? { first(name) }

    /// The first value of `name`, or `nil`.
    /// - Parameter name: A decoded name.
    /// - Returns: The value of the first item so named.
    public func first(_ name: String) -> String? {
        items.first { $0.name == name }?.value
    }

    /// The last value of `name`, or `nil`.
    /// - Parameter name: A decoded name.
    /// - Returns: The value of the last item so named.
    public func last(_ name: String) -> String? {
        items.last { $0.name == name }?.value
    }

    /// Every value of `name`, in order.
    /// - Parameter name: A decoded name.
    /// - Returns: The values; empty when the name is absent.
    public func all(_ name: String) -> [String] {
        items.filter { $0.name == name }.map(\.value)
    }

    /// The distinct names in order of first appearance, each with all its values.
    public var grouped: [(name: String, values: [String])] {
        var order: [String] = []
        var values: [String: [String]] = [:]
        for item in items {
            if values[item.name] == nil { order.append(item.name) }
            values[item.name, default: []].append(item.value)
        }
        return order.map { ($0, values[$0]!) }
    }

    /// `a=1&b=` (decoded, for reading — not re-encoded).
    public var description: String {
        items.map { "\($0.name)=\($0.value)" }.joined(separator: "&")
    }
}
