internal import CLua
internal import Foundation  // memchr

extension LuaPatternFunctions {
    /// `string.gsub(s, pattern, replacement [, n])`: Lua 5.4's, with a string, table or
    /// function replacement, at most `n` replacements.
    ///
    /// The result grows in a `luaL_Buffer`, as in Lua: on the Swift stack, its storage a
    /// userdata on the Lua stack once it outgrows the buffer, so an error leaks nothing.
    /// Every operation on it runs with its slot on top of the stack, as lauxlib requires.
    static let gsub: lua_CFunction = { state in
        var subjectLength = 0
        var patternLength = 0
        let subject = bytes(luaL_checklstring(state, 1, &subjectLength))
        let pattern = bytes(luaL_checklstring(state, 2, &patternLength))
        let kind = lua_type(state, 3)
        let most = luaL_optinteger(state, 4, lua_Integer(subjectLength) + 1)
        guard kind == LUA_TNUMBER || kind == LUA_TSTRING || kind == LUA_TFUNCTION || kind == LUA_TTABLE else {
            return luaL_typeerror(state, 3, HostFunctions.cString("string/function/table"))
        }
        let anchored = patternLength > 0 && pattern[0] == UInt8(ascii: "^")
        let rest = anchored ? pattern + 1 : pattern
        let restLength = anchored ? patternLength - 1 : patternLength
        var buffer = luaL_Buffer()
        return withUnsafeMutablePointer(to: &buffer) { buffer in
            var matcher = LuaPatternMatcher(
                subject: subject, subjectLength: subjectLength, pattern: rest, patternLength: restLength,
                allowance: SandboxContext.unitsLeft(state))
            return substitute(state, &matcher, buffer: buffer, kind: kind, most: most, anchored: anchored)
        }
    }

    /// The loop of Lua's `str_gsub`, from `luaL_buffinit` on: pushes the result and the
    /// number of replacements. Bytes between matches are added in runs, not one by one.
    private static func substitute(
        _ state: OpaquePointer?, _ matcher: inout LuaPatternMatcher, buffer: UnsafeMutablePointer<luaL_Buffer>,
        kind: Int32, most: lua_Integer, anchored: Bool
    ) -> Int32 {
        luaL_buffinit(state, buffer)
        var source = 0  // where the next match is tried
        var copied = 0  // the subject up to here is in the buffer
        var lastMatch = -1
        var count: lua_Integer = 0
        var changed = false
        while count < most {
            matcher.level = 0
            let end = matcher.match(source, 0)
            if matcher.stop != nil { break }
            if end != -1, end != lastMatch {
                count += 1
                guard add(state, &matcher, buffer, from: copied, to: source) else { break }
                guard let replaced = addValue(state, &matcher, buffer, kind: kind, match: (source, end)) else { break }
                changed = changed || replaced
                source = end
                copied = end
                lastMatch = end
            } else if source < matcher.subjectLength {
                source += 1  // kept as it is: added with the next run
            } else {
                break
            }
            if anchored { break }
        }
        if let stop = matcher.stop {
            return settle(state, &matcher) ? raise(state, stop) : raise(state, .budget)
        }
        if !changed {
            guard settle(state, &matcher) else { return raise(state, .budget) }
            lua_pushvalue(state, 1)
        } else {
            // The result string is a copy of the buffer: its bytes are charged again.
            guard add(state, &matcher, buffer, from: copied, to: matcher.subjectLength),
                matcher.spend(buffer.pointee.n), settle(state, &matcher)
            else { return raise(state, .budget) }
            luaL_pushresult(buffer)
        }
        lua_pushinteger(state, count)
        return 2
    }

    /// Adds the subject's bytes from `start` to `end` to the buffer, one step a byte;
    /// `false` (``LuaPatternMatcher/stop`` set) when the allowance does not reach.
    private static func add(
        _ state: OpaquePointer?, _ matcher: inout LuaPatternMatcher, _ buffer: UnsafeMutablePointer<luaL_Buffer>,
        from start: Int, to end: Int
    ) -> Bool {
        guard end > start else { return true }
        guard matcher.spend(end - start) else { return false }
        luaL_addlstring(buffer, charPointer(matcher.subject + start), end - start)
        return true
    }

    /// Adds the replacement of the match to the buffer. Lua's `add_value`: whether the
    /// subject changed (a function or table giving `nil` or `false` keeps the match), or
    /// `nil` when the matcher stopped. Raises Lua's errors.
    private static func addValue(
        _ state: OpaquePointer?, _ matcher: inout LuaPatternMatcher, _ buffer: UnsafeMutablePointer<luaL_Buffer>,
        kind: Int32, match: (start: Int, end: Int)
    ) -> Bool? {
        switch kind {
        case LUA_TFUNCTION:
            lua_pushvalue(state, 3)
            let count = pushCaptures(state, &matcher, whole: match)  // charges the steps so far
            jl_call(state, count, 1)  // Lua code: metered by the VM, and may raise
        case LUA_TTABLE:
            if !settle(state, &matcher) { _ = raise(state, .budget) }
            pushCapture(state, &matcher, 0, whole: match)
            lua_gettable(state, 3)  // may run `__index`
        default:
            return addString(state, &matcher, buffer, match: match) ? true : nil
        }
        matcher.allowance = SandboxContext.unitsLeft(state)
        if lua_toboolean(state, -1) == 0 {
            jl_pop(state, 1)
            return add(state, &matcher, buffer, from: match.start, to: match.end) ? false : nil
        }
        guard lua_isstring(state, -1) != 0 else {
            let name = jl_typename(state, -1)  // static storage
            luaL_where(state, 1)
            jl_pushstring(state, HostFunctions.cString("invalid replacement value (a "))
            jl_pushstring(state, name)
            jl_pushstring(state, HostFunctions.cString(")"))
            lua_concat(state, 4)
            _ = lua_error(state)
            return nil
        }
        var length = 0
        _ = lua_tolstring(state, -1, &length)  // a number becomes its text, as luaL_addvalue would make it
        guard matcher.spend(length) else { return nil }
        luaL_addvalue(buffer)
        return true
    }

    /// Adds a string replacement, its `%0`–`%9` replaced by the match and its captures and
    /// `%%` by `%`. Lua's `add_s`; one step per byte of the replacement read and per byte
    /// added. `false` when the matcher stopped. Raises Lua's errors.
    private static func addString(
        _ state: OpaquePointer?, _ matcher: inout LuaPatternMatcher, _ buffer: UnsafeMutablePointer<luaL_Buffer>,
        match: (start: Int, end: Int)
    ) -> Bool {
        var length = 0
        let text = bytes(lua_tolstring(state, 3, &length))  // a number becomes a string here, as in Lua
        guard matcher.spend(length) else { return false }
        var index = 0
        while let hit = memchr(text + index, Int32(UInt8(ascii: "%")), length - index) {
            let percent = UnsafeRawPointer(text).distance(to: UnsafeRawPointer(hit))
            if percent > index {
                guard matcher.spend(percent - index) else { return false }
                luaL_addlstring(buffer, charPointer(text + index), percent - index)
            }
            let escaped = percent + 1 < length ? text[percent + 1] : 0  // Lua reads the terminating \0
            switch escaped {
            case UInt8(ascii: "%"):
                guard matcher.spend(1) else { return false }
                luaL_addlstring(buffer, charPointer(text + percent + 1), 1)
            case UInt8(ascii: "0"):
                guard add(state, &matcher, buffer, from: match.start, to: match.end) else { return false }
            case UInt8(ascii: "1")...UInt8(ascii: "9"):
                let capture = Int(escaped - UInt8(ascii: "1"))
                if capture >= matcher.level, capture == 0 {
                    guard add(state, &matcher, buffer, from: match.start, to: match.end) else { return false }
                } else if capture < matcher.level, matcher.captures[capture].length >= 0 {
                    let start = matcher.captures[capture].start
                    guard add(state, &matcher, buffer, from: start, to: start + matcher.captures[capture].length) else {
                        return false
                    }
                } else {
                    // A position (pushed, then added as its digits), or an error.
                    pushCapture(state, &matcher, capture, whole: match)
                    var digits = 0
                    _ = lua_tolstring(state, -1, &digits)
                    guard matcher.spend(digits) else { return false }
                    luaL_addvalue(buffer)
                }
            default:
                _ = raise(state, .error(.invalidReplacement))
            }
            index = percent + 2
        }
        if length > index {
            guard matcher.spend(length - index) else { return false }
            luaL_addlstring(buffer, charPointer(text + index), length - index)
        }
        return true
    }
}
