internal import CLua

/// `string.find`, `string.match`, `string.gmatch` and `string.gsub` for rules: Lua 5.4's
/// functions, argument for argument and message for message, over ``LuaPatternMatcher``,
/// whose every step is charged to the instruction budget. (Lua's own run in C, where the
/// budget cannot stop a pattern that backtracks for minutes.)
///
/// Each takes its allowance from ``SandboxContext/unitsLeft(_:)`` before matching, charges
/// its steps and the bytes of the strings it makes with ``SandboxContext/charge(_:_:)``,
/// and raises the budget error once they run out.
///
/// The longjmp invariant: from the first Lua call that can raise to the last, these
/// functions hold only trivial values — integers, pointers into strings on the Lua
/// stack, a ``LuaPatternMatcher`` (`BitwiseCopyable`), and for `gsub` a `luaL_Buffer`
/// whose growing storage is a userdata on the Lua stack. So an error, from Lua or from a
/// replacement function `gsub` calls, skips no Swift frame that owns a reference. Lua
/// code runs only where the C library would run it (`gsub`'s function and table
/// replacements), after the steps so far are charged, and the allowance is taken afresh
/// after it; `gmatch`'s iterator keeps its position in a userdata, like Lua's.
enum LuaPatternFunctions {
    /// `string.find(s, pattern [, init [, plain]])`.
    static let find: lua_CFunction = { state in search(state, find: true) }

    /// `string.match(s, pattern [, init])`.
    static let match: lua_CFunction = { state in search(state, find: false) }

    /// Lua's `str_find_aux`.
    private static func search(_ state: OpaquePointer?, find: Bool) -> Int32 {
        var subjectLength = 0
        var patternLength = 0
        let subject = bytes(luaL_checklstring(state, 1, &subjectLength))
        let pattern = bytes(luaL_checklstring(state, 2, &patternLength))
        let start = startIndex(luaL_optinteger(state, 3, 1), length: subjectLength)
        guard start <= subjectLength else {  // nothing to find past the end
            lua_pushnil(state)
            return 1
        }
        var matcher = LuaPatternMatcher(
            subject: subject, subjectLength: subjectLength, pattern: pattern, patternLength: patternLength,
            allowance: SandboxContext.unitsLeft(state))
        if find, lua_toboolean(state, 4) != 0 || matcher.hasNoSpecials() {
            let found = matcher.findPlain(from: start)
            guard settle(state, &matcher), matcher.stop == nil else { return raise(state, .budget) }
            guard let found else {
                lua_pushnil(state)
                return 1
            }
            lua_pushinteger(state, lua_Integer(found + 1))
            lua_pushinteger(state, lua_Integer(found + patternLength))
            return 2
        }
        let anchored = patternLength > 0 && pattern[0] == UInt8(ascii: "^")
        if anchored {
            let spent = matcher.steps
            matcher = LuaPatternMatcher(
                subject: subject, subjectLength: subjectLength, pattern: pattern + 1, patternLength: patternLength - 1,
                allowance: matcher.allowance)
            matcher.steps = spent
        }
        let found = matcher.search(from: start, anchored: anchored)
        if let stop = matcher.stop {
            return settle(state, &matcher) ? raise(state, stop) : raise(state, .budget)
        }
        guard let found else {
            guard settle(state, &matcher) else { return raise(state, .budget) }
            lua_pushnil(state)
            return 1
        }
        if find {
            lua_pushinteger(state, lua_Integer(found.start + 1))
            lua_pushinteger(state, lua_Integer(found.end))
            return pushCaptures(state, &matcher, whole: nil) + 2
        }
        return pushCaptures(state, &matcher, whole: (found.start, found.end))
    }

    // MARK: - Support

    /// A string from the Lua stack as bytes.
    @inline(__always)
    static func bytes(_ text: UnsafePointer<CChar>?) -> UnsafePointer<UInt8> {
        UnsafeRawPointer(text.unsafelyUnwrapped).assumingMemoryBound(to: UInt8.self)
    }

    /// The 0-based index where a search starts for Lua's 1-based `init`, which counts from
    /// the end when negative (Lua's `posrelatI`, minus one). Past the subject's length
    /// when it starts after the end.
    static func startIndex(_ position: lua_Integer, length: Int) -> Int {
        if position > 0 { return Int(position) - 1 }
        if position == 0 || position < -lua_Integer(length) { return 0 }
        return length + Int(position)
    }

    /// Charges the matcher's steps to the evaluation and gives it a fresh allowance from
    /// what is left. `false` once the budget is spent.
    @inline(__always)
    static func settle(_ state: OpaquePointer?, _ matcher: inout LuaPatternMatcher) -> Bool {
        let charged = SandboxContext.charge(state, matcher.steps)
        matcher.steps = 0
        matcher.allowance = SandboxContext.unitsLeft(state)
        return charged
    }

    /// Raises what stopped a matcher: the budget error, or the pattern error with Lua's
    /// message and the caller's position in front, as `luaL_error` puts it. Never returns.
    static func raise(_ state: OpaquePointer?, _ stop: LuaPatternMatcher.Stop) -> Int32 {
        switch stop {
        case .budget:
            return SandboxContext.raiseBudgetExceeded(state)
        case .error(let error):
            guard case .invalidCaptureIndex(let index) = error else {
                return jl_error_string(state, HostFunctions.cString(error.text))
            }
            luaL_where(state, 1)
            jl_pushstring(state, HostFunctions.cString(error.text))
            lua_pushinteger(state, lua_Integer(index))
            lua_concat(state, 3)
            return lua_error(state)
        }
    }

    /// Pushes the captures of the last match, or the whole match (`whole`) when the
    /// pattern has none and `whole` is given — Lua's `push_captures` — after charging the
    /// steps so far and the bytes of the strings it makes. Returns how many it pushed.
    /// May raise.
    static func pushCaptures(
        _ state: OpaquePointer?, _ matcher: inout LuaPatternMatcher, whole: (start: Int, end: Int)?
    )
        -> Int32
    {
        let count = matcher.level == 0 && whole != nil ? 1 : matcher.level
        var index = 0
        while index < count {
            let length = capturedLength(&matcher, index, whole: whole)
            if length > 0 { matcher.steps &+= length }
            index += 1
        }
        guard settle(state, &matcher) else { return raise(state, .budget) }
        luaL_checkstack(state, Int32(count), HostFunctions.cString("too many captures"))
        index = 0
        while index < count {
            pushCapture(state, &matcher, index, whole: whole)
            index += 1
        }
        return Int32(count)
    }

    /// The length of capture `index` (the whole match when there are no captures), or a
    /// negative number when it is a position or not a capture at all.
    private static func capturedLength(_ matcher: inout LuaPatternMatcher, _ index: Int, whole: (start: Int, end: Int)?)
        -> Int
    {
        guard index < matcher.level else { return whole.map { $0.end - $0.start } ?? -1 }
        return matcher.captures[index].length
    }

    /// Pushes capture `index`: its bytes, or its position for `()`; the whole match for
    /// capture 0 when the pattern has none. Lua's `push_onecapture`: raises for an index
    /// past the captures, or a capture still open. Charges nothing.
    static func pushCapture(
        _ state: OpaquePointer?, _ matcher: inout LuaPatternMatcher, _ index: Int, whole: (start: Int, end: Int)?
    ) {
        guard index < matcher.level else {
            guard index == 0, let whole else {
                _ = raise(state, .error(.invalidCaptureIndex(index + 1)))
                return
            }
            _ = lua_pushlstring(state, charPointer(matcher.subject + whole.start), whole.end - whole.start)
            return
        }
        let capture = matcher.captures[index]
        switch capture.length {
        case LuaPatternCapture.unfinished:
            _ = raise(state, .error(.unfinishedCapture))
        case LuaPatternCapture.position:
            lua_pushinteger(state, lua_Integer(capture.start + 1))
        default:
            _ = lua_pushlstring(state, charPointer(matcher.subject + capture.start), capture.length)
        }
    }

    @inline(__always)
    static func charPointer(_ bytes: UnsafePointer<UInt8>) -> UnsafePointer<CChar> {
        UnsafeRawPointer(bytes).assumingMemoryBound(to: CChar.self)
    }
}
