internal import CLua

extension LuaPatternFunctions {
    /// Where a `gmatch` iterator stands, kept in a userdata (an upvalue of the iterator, as
    /// in Lua), so the iterator holds no Swift value between calls.
    private struct Iteration: BitwiseCopyable {
        /// The index where the next search starts.
        var position: Int
        /// The end of the last match (-1 before the first): an empty match there is skipped,
        /// so the iterator always moves on.
        var lastMatch: Int
    }

    /// `string.gmatch(s, pattern [, init])`: an iterator over the matches, Lua 5.4's
    /// (`lastmatch` semantics; `^` is an ordinary byte). The iterator is a C closure with
    /// upvalues — the subject, the pattern and its position — which sealing refuses to keep
    /// past a bundle's loading.
    static let gmatch: lua_CFunction = { state in
        var subjectLength = 0
        _ = luaL_checklstring(state, 1, &subjectLength)
        _ = luaL_checklstring(state, 2, nil)
        let start = startIndex(luaL_optinteger(state, 3, 1), length: subjectLength)
        lua_settop(state, 2)  // the strings, converted: the closure keeps them alive
        let block = lua_newuserdatauv(state, MemoryLayout<Iteration>.size, 0).unsafelyUnwrapped
        block.storeBytes(of: Iteration(position: min(start, subjectLength + 1), lastMatch: -1), as: Iteration.self)
        lua_pushcclosure(state, gmatchStep, 3)
        return 1
    }

    /// The iterator: the captures of the next match, or nothing at the end. Lua's `gmatch_aux`.
    private static let gmatchStep: lua_CFunction = { state in
        var subjectLength = 0
        var patternLength = 0
        let subject = bytes(lua_tolstring(state, jl_upvalueindex(1), &subjectLength))  // strings: cannot raise
        let pattern = bytes(lua_tolstring(state, jl_upvalueindex(2), &patternLength))
        let block = lua_touserdata(state, jl_upvalueindex(3)).unsafelyUnwrapped
        var iteration = block.load(as: Iteration.self)
        var matcher = LuaPatternMatcher(
            subject: subject, subjectLength: subjectLength, pattern: pattern, patternLength: patternLength,
            allowance: SandboxContext.unitsLeft(state))
        var position = iteration.position
        while position <= subjectLength {
            matcher.level = 0
            let end = matcher.match(position, 0)
            if let stop = matcher.stop {
                return settle(state, &matcher) ? raise(state, stop) : raise(state, .budget)
            }
            if end != -1, end != iteration.lastMatch {
                iteration.position = end
                iteration.lastMatch = end
                block.storeBytes(of: iteration, as: Iteration.self)
                return pushCaptures(state, &matcher, whole: (position, end))
            }
            position += 1
        }
        // Lua leaves the position where it was: another call searches again.
        guard settle(state, &matcher) else { return raise(state, .budget) }
        return 0
    }
}
