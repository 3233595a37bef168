internal import CLua

extension LuaState {
    /// The stack's height.
    var stackHeight: Int32 { lua_gettop(handle) }

    /// Drops everything above `height`: only values this module pushed, with nothing to
    /// close, so it cannot raise.
    func reset(to height: Int32) { lua_settop(handle, height) }

    /// Pushes copies of `count` values starting at `first`. `lua_pushvalue` does not
    /// allocate; the caller has checked the stack's room.
    @inline(__always)
    func pushCopies(first: Int32, count: Int32) {
        // A plain loop: a range cost more than the two copies a rule call makes.
        var index = first
        while index < first &+ count {
            lua_pushvalue(handle, index)
            index &+= 1
        }
    }

    /// Runs a full collection. Runs no rule code (`__gc` is refused in rules).
    func collectGarbage() { _ = jl_gc(handle, LUA_GCCOLLECT, 0) }
}
