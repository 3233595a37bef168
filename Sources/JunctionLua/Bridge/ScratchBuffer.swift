/// A growable block of raw memory that C callbacks fill in Swift and then read while Lua
/// may raise: it holds no Swift references, so a `longjmp` past its reader leaks nothing.
/// Its owner deallocates it.
struct ScratchBuffer {
    /// The start of the block (8-byte aligned).
    private(set) var base: UnsafeMutableRawPointer
    /// Its size in bytes.
    private(set) var capacity: Int

    /// A block of `capacity` bytes.
    init(capacity: Int = 256) {
        self.capacity = max(capacity, 8)
        base = .allocate(byteCount: self.capacity, alignment: 8)
    }

    /// Makes the block at least `size` bytes; the contents are not kept.
    mutating func reserve(_ size: Int) {
        guard size > capacity else { return }
        base.deallocate()
        capacity = max(size, capacity * 2)
        base = .allocate(byteCount: capacity, alignment: 8)
    }

    /// Copies `bytes` to the start of the block.
    mutating func store(_ bytes: UnsafeRawBufferPointer) {
        reserve(bytes.count)
        if let source = bytes.baseAddress, !bytes.isEmpty { base.copyMemory(from: source, byteCount: bytes.count) }
    }

    /// Frees the block.
    func deallocate() { base.deallocate() }
}
