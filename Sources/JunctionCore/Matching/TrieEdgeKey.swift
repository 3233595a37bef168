/// A constant edge of the trie while it is built: the parent node and the segment's
/// text. Compared byte for byte, not as `String`s (which compare canonically equivalent
/// text as equal: precomposed "é" and "e" + U+0301 are different segments), and hashed in
/// one pass over the bytes. Holding the `String` keeps a lookup of a short segment free
/// of allocations.
struct TrieEdgeKey: Hashable {
    let parent: Int32
    let text: String

    static func == (lhs: TrieEdgeKey, rhs: TrieEdgeKey) -> Bool {
        lhs.parent == rhs.parent && lhs.text.utf8.elementsEqual(rhs.text.utf8)
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(parent)
        let hashed: Void? = text.utf8.withContiguousStorageIfAvailable {
            hasher.combine(bytes: UnsafeRawBufferPointer($0))
        }
        if hashed == nil {
            for byte in text.utf8 { hasher.combine(byte) }
        }
    }
}
