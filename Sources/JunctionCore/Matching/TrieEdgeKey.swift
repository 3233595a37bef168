/// A constant edge of the trie while it is built: the parent node and the segment's
/// bytes. Compared byte for byte (not as `String`s, which compare canonically
/// equivalent text as equal) and hashed in one pass over the bytes.
struct TrieEdgeKey: Hashable {
    let parent: Int32
    let bytes: [UInt8]

    static func == (lhs: TrieEdgeKey, rhs: TrieEdgeKey) -> Bool {
        lhs.parent == rhs.parent && lhs.bytes == rhs.bytes
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(parent)
        // `[UInt8]`'s own hashing feeds the hasher one byte at a time.
        bytes.withUnsafeBytes { hasher.combine(bytes: $0) }
    }
}
