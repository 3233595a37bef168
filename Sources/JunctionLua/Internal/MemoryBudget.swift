internal import CLua

internal import Foundation  // free, realloc, memcmp, strcmp, strstr

/// The heap accounting of one Lua state, handed to Lua as its allocator's `ud`.
///
/// Lua routes every allocation, resize and free through ``allocator``, so `inUse`
/// is exact and the cap cannot be bypassed from Lua code.
struct MemoryBudget {
    /// The most bytes the state may hold at once.
    let limit: Int

    /// The bytes the state holds now.
    private(set) var inUse = 0

    /// Creates a budget that lets a state hold at most `limit` bytes.
    init(limit: Int) {
        self.limit = limit
    }

    /// A `lua_Alloc` that refuses to grow the heap past the budget's limit.
    ///
    /// Refusing is returning `NULL`: Lua then runs an emergency collection, retries,
    /// and finally raises "not enough memory" (`LUA_ERRMEM`) in the running chunk.
    static let allocator: lua_Alloc = { userData, block, oldSize, newSize in
        let budget = userData.unsafelyUnwrapped.assumingMemoryBound(to: MemoryBudget.self)
        // Without a block, `oldSize` names the kind of object being created, not a size.
        let previous = block == nil ? 0 : oldSize
        if newSize == 0 {
            free(block)
            budget.pointee.inUse -= previous
            return nil
        }
        // Written as a difference so a huge request cannot overflow the sum.
        if newSize > previous, newSize - previous > budget.pointee.limit - budget.pointee.inUse {
            return nil
        }
        guard let resized = realloc(block, newSize) else { return nil }
        budget.pointee.inUse += newSize - previous
        return resized
    }
}
