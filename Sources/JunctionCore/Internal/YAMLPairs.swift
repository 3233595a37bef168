package import Yams

/// The pairs of a YAML mapping that a reader may visit, read in place: iterating a
/// `Node.Mapping` itself copies every pair into a new array first.
package struct YAMLPairs: Sequence {
    private let mapping: Node.Mapping
    private let count: Int

    /// The first `count` pairs of `mapping`.
    init(_ mapping: Node.Mapping, count: Int) {
        self.mapping = mapping
        self.count = count
    }

    package func makeIterator() -> Iterator {
        Iterator(mapping: mapping, index: mapping.startIndex, end: mapping.startIndex + count)
    }

    /// Reads one pair at a time.
    package struct Iterator: IteratorProtocol {
        fileprivate let mapping: Node.Mapping
        fileprivate var index: Int
        fileprivate let end: Int

        package mutating func next() -> (key: Node, value: Node)? {
            guard index < end else { return nil }
            defer { index += 1 }
            return mapping[index]
        }
    }
}
