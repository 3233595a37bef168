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
        var index = first
        while index < first &+ count {
            lua_pushvalue(handle, index)
            index &+= 1
        }
    }

    /// Runs a full collection. Runs no rule code (`__gc` is refused in rules).
    func collectGarbage() { _ = jl_gc(handle, LUA_GCCOLLECT, 0) }

    /// Ensures `count` more stack slots on `handle`, or throws the memory error a full
    /// stack means: Lua grows its stack by allocating, within the state's memory limit.
    ///
    /// Every reservation in JunctionLua goes through here, so a full stack reads the same
    /// wherever it happens.
    /// - Parameters:
    ///   - count: The slots needed above the top.
    ///   - chunkName: What the error names as its source (`req`, `ctx`, `sandbox`, a file).
    ///   - activity: What needed them, for the message: `pass req to Lua`.
    static func reserveStack(
        _ count: Int32, in handle: OpaquePointer, chunkName: String, activity: @autoclosure () -> String
    ) throws(LuaError) {
        guard lua_checkstack(handle, count) == 0 else { return }
        throw LuaError(
            code: .memory, chunkName: chunkName, line: nil,
            message: "not enough Lua stack to \(activity()); the state's memory limit is reached")
    }

    /// Ensures `count` more stack slots; see ``reserveStack(_:in:chunkName:activity:)``.
    func reserveStack(_ count: Int32, chunkName: String, activity: @autoclosure () -> String) throws(LuaError) {
        try Self.reserveStack(count, in: handle, chunkName: chunkName, activity: activity())
    }

    /// The error object at `index` of `handle` as text, without calling `__tostring`
    /// (which could raise or never return): a string as it is, anything else named by its
    /// type. The message handlers make rule errors strings, so only errors raised outside
    /// them (a memory error, a failed setup call) are ever another type.
    static func errorText(at index: Int32, in handle: OpaquePointer?) -> String {
        guard lua_type(handle, index) == LUA_TSTRING else {
            return "(error object is a \(String(cString: jl_typename(handle, index))) value)"
        }
        return string(at: index, in: handle)
    }

    /// The error object at `index` as text; see ``errorText(at:in:)``.
    func errorText(at index: Int32) -> String { Self.errorText(at: index, in: handle) }

    /// The string at `index`; the caller knows it is one (so converting cannot raise).
    static func string(at index: Int32, in handle: OpaquePointer?) -> String {
        var length = 0
        guard let bytes = lua_tolstring(handle, index, &length) else { return "" }
        return String(decoding: UnsafeRawBufferPointer(start: bytes, count: length), as: UTF8.self)
    }
}
