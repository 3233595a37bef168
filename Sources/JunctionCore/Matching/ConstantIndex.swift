/// Every constant edge of the trie in one open-addressing hash table keyed by
/// (parent node, segment bytes), so a lookup hashes the URL's bytes in place and
/// allocates nothing, whatever the number of routes.
struct ConstantIndex: Sendable {
    fileprivate struct Slot: Sendable {
        var hash: UInt64
        var parent: Int32
        var child: Int32
        var keyStart: Int32
        var keyLength: Int32
    }

    private var slots: [Slot]
    private var mask: Int
    private var keys: [UInt8]

    /// Builds the index from `(parent, key, child)` edges; keys are unique per parent.
    init(edges: [(parent: Int32, key: [UInt8], child: Int32)]) {
        var capacity = 16
        while capacity < edges.count * 2 { capacity <<= 1 }
        mask = capacity - 1
        keys = []
        keys.reserveCapacity(edges.reduce(0) { $0 + $1.key.count })
        slots = Array(repeating: Slot(hash: 0, parent: -1, child: -1, keyStart: 0, keyLength: 0), count: capacity)
        for edge in edges {
            let hash = edge.key.withUnsafeBufferPointer { Self.hash($0, parent: edge.parent) }
            var index = Int(truncatingIfNeeded: hash) & mask
            while slots[index].child >= 0 { index = (index + 1) & mask }
            slots[index] = Slot(
                hash: hash, parent: edge.parent, child: edge.child,
                keyStart: Int32(keys.count), keyLength: Int32(edge.key.count))
            keys += edge.key
        }
    }

    @inline(__always)
    private static func hash(_ bytes: UnsafeBufferPointer<UInt8>, parent: Int32) -> UInt64 {
        Bytes.hash(bytes, seed: UInt64(UInt32(bitPattern: parent)) &* 0x9E37_79B9_7F4A_7C15)
    }

    /// The index's storage, borrowed for the length of one search so lookups touch no
    /// reference counts.
    struct Lookup {
        fileprivate let slots: UnsafeBufferPointer<Slot>
        fileprivate let keys: UnsafeBufferPointer<UInt8>
        fileprivate let mask: Int

        /// The child of `parent` along the constant `key`, or `-1`.
        @inline(__always)
        func child(of parent: Int32, key: UnsafeBufferPointer<UInt8>) -> Int32 {
            let hash = ConstantIndex.hash(key, parent: parent)
            var index = Int(truncatingIfNeeded: hash) & mask
            while true {
                let slot = slots[index]
                if slot.child < 0 { return -1 }
                if slot.hash == hash, slot.parent == parent,
                    Bytes.equal(
                        UnsafeBufferPointer(rebasing: keys[Int(slot.keyStart)..<Int(slot.keyStart + slot.keyLength)]),
                        key)
                {
                    return slot.child
                }
                index = (index + 1) & mask
            }
        }
    }

    /// Calls `body` with the index borrowed for lookups.
    @inline(__always)
    func withLookup<Result>(_ body: (Lookup) -> Result) -> Result {
        slots.withUnsafeBufferPointer { slots in
            keys.withUnsafeBufferPointer { keys in
                body(Lookup(slots: slots, keys: keys, mask: mask))
            }
        }
    }
}
