internal import CLua

/// How a charged library function's work is measured from its arguments (the rows of
/// ``ChargePolicy`` name one per function), in budget units.
///
/// Each model reads the arguments with the lauxlib calls the C original uses, in the same
/// order, before anything looks at their values: a numeric string converts exactly as it
/// will for the original (`string.rep("", "4e18")` is 4e18 repetitions), and a wrong
/// argument raises the original's own "bad argument" message. Models run where Lua may
/// raise, so they hold only integers and raw pointers.
///
/// The costs follow Lua 5.4's library code; a model only has to bound the work, not
/// reproduce it, so it rounds up where that is simpler.
enum WorkCost {
    /// `string.upper/lower/reverse(s)`: the bytes of `s`.
    case textBytes
    /// `string.rep(s, n [, sep])`: `n` pieces of `#s + #sep` bytes, each at least one
    /// unit, so `n` empty pieces are not free; nothing for `n <= 0`.
    case repetition
    /// `string.sub(s, i [, j])`: the bytes of the result.
    case substring
    /// `string.byte(s [, i [, j]])`: the values pushed.
    case bytePositions
    /// `string.char(...)`, `utf8.char(...)`, `table.pack(...)`: one per argument.
    case arguments
    /// `string.format(fmt, ...)`: the format and every string argument, then the result.
    case format
    /// `string.pack(fmt, ...)`: the format and a bound on the result known before it is
    /// built (see ``packedBound(_:_:)``), string arguments included.
    case pack
    /// `string.packsize(fmt)`: the format.
    case packSize
    /// `string.unpack(fmt, s [, pos])`: the format and the data it can read: the rest of
    /// `s` for `s`/`z` items, else at most what the format's sizes add up to.
    case unpack
    /// `table.insert(t, [pos,] v)`: the elements shifted up, border as `lua_rawlen` gives it.
    case insertion
    /// `table.remove(t [, pos])`: the elements shifted down.
    case removal
    /// `table.move(a1, f, e, t [, a2])`: `e - f + 1` elements.
    case move
    /// `table.concat(t [, sep [, i [, j]]])`: the elements and the bytes they join into,
    /// counted from the table before the original runs; number elements' text afterwards.
    case concatenation
    /// `table.sort(t [, comp])`: `n·⌈log2 n⌉` comparisons (a comparator's own
    /// instructions run under the VM budget as well).
    case sorting
    /// `table.unpack(t [, i [, j]])`: the values pushed.
    case tableUnpack
    /// `utf8.codepoint(s [, i [, j]])`: the bytes decoded.
    case codepoints
    /// `utf8.len(s [, i [, j]])`: the bytes decoded.
    case utf8Length
    /// `utf8.offset(s, n [, i])`: the bytes scanned, read from the position it returns.
    case utf8Offset
    /// `utf8.codes(s)`: free itself; its iterator is swapped for a charged one.
    case codes
    /// One step of `utf8.codes`'s iterator: the continuation bytes it skips, plus one.
    case codeStep
    /// `load(chunk, ...)`: the bytes of the chunk (parsing is C work).
    case chunk
    /// `rawequal(a, b)`: the bytes compared when both are strings of one length.
    case rawEquality
    /// `select(n, ...)`: the values returned.
    case selection
    /// `tonumber(s [, base])`: the bytes of a string argument.
    case numeral

    /// What a call is charged before it starts, and what the wrapper does after.
    struct Estimate {
        /// Charged before the original runs; more than is left fails the call unstarted.
        var units: Int
        var afterwards = Afterwards.nothing
    }

    /// Work that is known only once the original has run, or a call it need not make.
    enum Afterwards {
        case nothing
        /// Answer `""` without calling the original (`string.rep` of empty pieces, which
        /// Lua's own loop would spin through).
        case answerEmptyString
        /// Charge the string result's bytes beyond this many, which were charged before.
        case resultBytes(beyond: Int)
        /// Charge the distance from this 0-based position to the one the call returns, or
        /// `ifNotFound` bytes when it returns no position (`utf8.offset`).
        case scan(from: Int, ifNotFound: Int)
        /// Replace the iterator among the results with the charged one (`utf8.codes`).
        case chargedIterator(lax: Bool)
    }

    /// Reads the arguments on the stack as the original will and measures the call.
    /// May raise the original's argument errors; leaves the stack as it found it, but for
    /// `table.unpack`, whose default end it fills in (so `__len` runs once, not twice), and
    /// `string.format`, whose `%s` arguments shown by address it replaces by their text.
    /// Inlined into each model's own charged function (``ChargedCalls``), where `self` is
    /// a constant and only its case remains.
    @inline(__always)
    func estimate(_ state: OpaquePointer?) -> Estimate {
        switch self {
        case .textBytes:
            return Estimate(units: Self.bytes(Self.checkedLength(state, 1)))

        case .repetition:
            let length = Self.checkedLength(state, 1)
            let count = Int(Self.checkedInteger(state, 2))
            var separator = 0
            _ = luaL_optlstring(state, 3, HostFunctions.cString(""), &separator)
            guard count > 0 else { return Estimate(units: 0) }
            let piece = length + separator  // two strings in memory: cannot overflow
            let units = Self.product(count, max(Self.bytes(piece), ChargePolicy.unitsPerElement))
            return Estimate(units: units, afterwards: piece == 0 ? .answerEmptyString : .nothing)

        case .substring:
            let length = Self.checkedLength(state, 1)
            let start = Self.startPosition(Int(Self.checkedInteger(state, 2)), length)
            let end = Self.endPosition(state, 3, default: -1, length)
            return Estimate(units: Self.bytes(Self.span(start, end)))

        case .bytePositions:
            let length = Self.checkedLength(state, 1)
            let first = Self.optionalInteger(state, 2, 1)
            let start = Self.startPosition(Int(first), length)
            let end = Self.endPosition(state, 3, default: first, length)
            return Estimate(units: Self.elements(Self.span(start, end)))

        case .arguments:
            return Estimate(units: Self.elements(Int(lua_gettop(state))))

        case .format:
            let format = Self.checkedLength(state, 1)
            Self.makeFormatDeterministic(state)
            let units = Self.sum(Self.bytes(format), Self.bytes(Self.stringArgumentBytes(state, from: 2)))
            return Estimate(units: units, afterwards: .resultBytes(beyond: 0))

        case .pack:
            var length = 0
            let format = luaL_checklstring(state, 1, &length).unsafelyUnwrapped  // raises rather than return nil
            let result = Self.sum(Self.packedBound(format, length), Self.stringArgumentBytes(state, from: 2))
            return Estimate(units: Self.bytes(Self.sum(length, result)))

        case .packSize:
            return Estimate(units: Self.bytes(Self.checkedLength(state, 1)))

        case .unpack:
            var length = 0
            let format = luaL_checklstring(state, 1, &length).unsafelyUnwrapped  // raises rather than return nil
            let data = Self.checkedLength(state, 2)
            let position = Self.startPosition(Int(Self.optionalInteger(state, 3, 1)), data) - 1
            guard position <= data else { return Estimate(units: Self.bytes(length)) }  // the original refuses it
            let rest = data - position
            let read = Self.hasVariableLengthItem(format, length) ? rest : min(rest, Self.packedBound(format, length))
            return Estimate(units: Self.bytes(Self.sum(length, read)))

        case .insertion:
            guard let size = Self.plainLength(state, 1), lua_gettop(state) == 3 else {
                return Estimate(units: Self.elements(1))  // an append, or the original's own error
            }
            let end = Self.sum(size, 1)  // the first empty slot
            let position = Int(Self.checkedInteger(state, 2))
            guard position >= 1, position <= end else { return Estimate(units: Self.elements(1)) }
            return Estimate(units: Self.elements(end - position + 1))

        case .removal:
            guard let size = Self.plainLength(state, 1) else { return Estimate(units: Self.elements(1)) }
            let position = Int(Self.optionalInteger(state, 2, lua_Integer(size)))
            guard position == size || (position >= 1 && position <= Self.sum(size, 1)) else {
                return Estimate(units: Self.elements(1))  // the original refuses it
            }
            return Estimate(units: Self.elements(Self.sum(max(size - position, 0), 1)))

        case .move:
            let first = Int(Self.checkedInteger(state, 2))
            let last = Int(Self.checkedInteger(state, 3))
            _ = Self.checkedInteger(state, 4)
            return Estimate(units: Self.elements(Self.count(from: first, through: last)))

        case .concatenation:
            return Self.concatenation(state)

        case .sorting:
            guard let count = Self.plainLength(state, 1), count > 1 else { return Estimate(units: 0) }
            let depth = Int.bitWidth - (count - 1).leadingZeroBitCount  // ⌈log2 count⌉
            return Estimate(units: Self.elements(Self.product(count, depth)))

        case .tableUnpack:
            let first = Int(Self.optionalInteger(state, 2, 1))
            let last: Int
            if jl_isnoneornil(state, 3) != 0 {
                last = Int(luaL_len(state, 1))
                lua_settop(state, 3)
                lua_pushinteger(state, lua_Integer(last))
                jl_replace(state, 3)
            } else {
                last = Int(Self.checkedInteger(state, 3))
            }
            return Estimate(units: Self.elements(Self.count(from: first, through: last)))

        case .codepoints:
            let length = Self.checkedLength(state, 1)
            let first = Self.relativePosition(Int(Self.optionalInteger(state, 2, 1)), length)
            let last = Self.relativePosition(Int(Self.optionalInteger(state, 3, lua_Integer(first))), length)
            return Estimate(units: Self.bytes(Self.span(max(first, 1), min(last, length))))

        case .utf8Length:
            let length = Self.checkedLength(state, 1)
            let first = Self.relativePosition(Int(Self.optionalInteger(state, 2, 1)), length)
            let last = Self.relativePosition(Int(Self.optionalInteger(state, 3, -1)), length)
            return Estimate(units: Self.bytes(Self.span(max(first, 1), min(last, length))))

        case .utf8Offset:
            let length = Self.checkedLength(state, 1)
            let n = Int(Self.checkedInteger(state, 2))
            let position = Self.relativePosition(
                Int(Self.optionalInteger(state, 3, n >= 0 ? 1 : lua_Integer(length + 1))), length)
            guard position >= 1, position - 1 <= length else { return Estimate(units: 0) }  // the original refuses it
            let start = position - 1
            return Estimate(units: 0, afterwards: .scan(from: start, ifNotFound: n > 0 ? length - start : start))

        case .codes:
            return Estimate(units: 0, afterwards: .chargedIterator(lax: lua_toboolean(state, 2) != 0))

        case .codeStep:
            var length = 0
            let text = UnsafeRawPointer(luaL_checklstring(state, 1, &length)).assumingMemoryBound(to: UInt8.self)
            let start = lua_Unsigned(bitPattern: lua_tointegerx(state, 2, nil))  // as the original reads it
            guard start < UInt64(length) else { return Estimate(units: Self.elements(1)) }
            // The original skips continuation bytes with no bound but the string's end;
            // counting them first (no further than the budget reaches) is the same work.
            let left = SandboxContext.unitsLeft(state)
            var index = Int(start)
            while index < length, text[index] & 0xC0 == 0x80, index - Int(start) <= left { index += 1 }
            return Estimate(units: Self.sum(Self.bytes(index - Int(start)), Self.elements(1)))

        case .chunk:
            return Estimate(units: lua_type(state, 1) == LUA_TSTRING ? Self.bytes(Int(lua_rawlen(state, 1))) : 0)

        case .rawEquality:
            guard lua_type(state, 1) == LUA_TSTRING, lua_type(state, 2) == LUA_TSTRING,
                lua_rawlen(state, 1) == lua_rawlen(state, 2)
            else { return Estimate(units: 0) }
            return Estimate(units: Self.bytes(Int(lua_rawlen(state, 1))))

        case .selection:
            let count = Int(lua_gettop(state))
            if lua_type(state, 1) == LUA_TSTRING, lua_tolstring(state, 1, nil)?.pointee == CChar(UInt8(ascii: "#")) {
                return Estimate(units: 0)
            }
            var index = Int(Self.checkedInteger(state, 1))
            if index < 0 { index = count + index } else if index > count { index = count }
            guard index >= 1 else { return Estimate(units: 0) }  // the original refuses it
            return Estimate(units: Self.elements(count - index))

        case .numeral:
            return Estimate(units: lua_type(state, 1) == LUA_TSTRING ? Self.bytes(Int(lua_rawlen(state, 1))) : 0)
        }
    }

    /// `table.concat` on a table without a metatable (the prelude sends the others to its
    /// Lua fallback): visits the elements as the original will, until the first it would
    /// refuse or until the cost passes what is left, and sums the bytes they join into —
    /// known before the join, so a join too large for the memory limit, which fails inside
    /// the original (and can be caught), is paid for too.
    private static func concatenation(_ state: OpaquePointer?) -> Estimate {
        guard let size = plainLength(state, 1) else { return Estimate(units: elements(1)) }
        var separator = 0
        _ = luaL_optlstring(state, 2, HostFunctions.cString(""), &separator)
        let first = Int(Self.optionalInteger(state, 3, 1))
        let last = Int(Self.optionalInteger(state, 4, lua_Integer(size)))
        let left = SandboxContext.unitsLeft(state)
        var visited = 0
        var text = 0
        var index = first
        while index <= last {
            let type = lua_rawgeti(state, 1, lua_Integer(index))  // raw, like the original on a plain table
            if type == LUA_TSTRING { text = sum(text, Int(lua_rawlen(state, -1))) }
            jl_pop(state, 1)
            guard type == LUA_TSTRING || type == LUA_TNUMBER else { break }
            visited += 1
            if sum(elements(visited), bytes(text)) > left || index == last { break }
            index += 1
        }
        let joined = sum(text, product(max(visited - 1, 0), separator))
        return Estimate(units: sum(elements(visited), bytes(joined)), afterwards: .resultBytes(beyond: joined))
    }

    // MARK: - Reading arguments as the originals do

    // Each reader tries the one call the lauxlib function makes first (`lua_tolstring`,
    // `lua_tointegerx`), which converts exactly as it does, and leaves defaults and errors
    // to the lauxlib function itself: a charged call on well-formed arguments makes one
    // call into Lua per argument instead of up to three.

    /// The length of the string argument `arg` (`luaL_checklstring`: a number becomes a
    /// string in place, as it would for the original).
    @inline(__always)
    private static func checkedLength(_ state: OpaquePointer?, _ arg: Int32) -> Int {
        var length = 0
        if lua_tolstring(state, arg, &length) == nil { _ = luaL_checklstring(state, arg, &length) }
        return length
    }

    /// The integer argument `arg`, as `luaL_checkinteger` reads it.
    @inline(__always)
    private static func checkedInteger(_ state: OpaquePointer?, _ arg: Int32) -> lua_Integer {
        var isInteger: Int32 = 0
        let value = lua_tointegerx(state, arg, &isInteger)
        return isInteger != 0 ? value : luaL_checkinteger(state, arg)
    }

    /// The optional integer argument `arg`, as `luaL_optinteger` reads it.
    @inline(__always)
    private static func optionalInteger(_ state: OpaquePointer?, _ arg: Int32, _ value: lua_Integer) -> lua_Integer {
        var isInteger: Int32 = 0
        let given = lua_tointegerx(state, arg, &isInteger)
        if isInteger != 0 { return given }
        return lua_type(state, arg) <= LUA_TNIL ? value : luaL_optinteger(state, arg, value)
    }

    /// The bytes of the arguments from `first` on that are strings, unconverted.
    private static func stringArgumentBytes(_ state: OpaquePointer?, from first: Int32) -> Int {
        var total = 0
        var arg = first
        let top = lua_gettop(state)
        while arg <= top {
            if lua_type(state, arg) == LUA_TSTRING { total = sum(total, Int(lua_rawlen(state, arg))) }
            arg += 1
        }
        return total
    }

    /// Makes `string.format`'s result the same on every device and in every run: refuses
    /// `%p` (an address), and replaces each `%s` argument that `tostring` would show by
    /// its address (a table, function or userdata without `__tostring`) with the text the
    /// sandbox's `tostring` shows. Reads the format at argument 1, a string by now; may
    /// raise (the `%p` error, a `__tostring` that fails).
    private static func makeFormatDeterministic(_ state: OpaquePointer?) {
        var length = 0
        let format = UnsafeRawPointer(lua_tolstring(state, 1, &length).unsafelyUnwrapped).assumingMemoryBound(
            to: UInt8.self)
        let top = lua_gettop(state)
        var argument: Int32 = 1
        var index = 0
        while index < length {
            defer { index += 1 }
            guard format[index] == UInt8(ascii: "%") else { continue }
            index += 1
            guard index < length, format[index] != UInt8(ascii: "%") else { continue }
            // Flags, width and precision; Lua's own `format` checks them afterwards.
            while index < length, "-+ #0123456789.".utf8.contains(format[index]) { index += 1 }
            guard index < length else { return }
            argument += 1
            switch format[index] {
            case UInt8(ascii: "p"):
                _ = jl_error_string(
                    state,
                    HostFunctions.cString(
                        "string.format: '%p' shows an address, which differs between devices and runs; rules may not use it"
                    ))
            case UInt8(ascii: "s") where argument <= top:
                switch lua_type(state, argument) {
                case LUA_TTABLE, LUA_TFUNCTION, LUA_TUSERDATA, LUA_TLIGHTUSERDATA, LUA_TTHREAD:
                    HostFunctions.pushStableText(state, argument)
                    jl_replace(state, argument)
                default:
                    break
                }
            default:
                break
            }
        }
    }

    /// The border of the table at `index` when it has no metatable, `nil` otherwise.
    private static func plainLength(_ state: OpaquePointer?, _ index: Int32) -> Int? {
        guard lua_type(state, index) == LUA_TTABLE else { return nil }
        if lua_getmetatable(state, index) != 0 {
            jl_pop(state, 1)
            return nil
        }
        return Int(clamping: lua_rawlen(state, index))
    }

    /// A start position of `string.sub`/`string.byte`, clipped to `[1, ∞)`.
    private static func startPosition(_ position: Int, _ length: Int) -> Int {
        if position > 0 { return position }
        if position == 0 || position < -length { return 1 }
        return length + position + 1
    }

    /// The optional end position `arg` of `string.sub`/`string.byte`, clipped to `[0, length]`.
    private static func endPosition(_ state: OpaquePointer?, _ arg: Int32, default value: lua_Integer, _ length: Int)
        -> Int
    {
        let position = Int(Self.optionalInteger(state, arg, value))
        if position > length { return length }
        if position >= 0 { return position }
        if position < -length { return 0 }
        return length + position + 1
    }

    /// A position of the `utf8` functions: negative counts from the end, before the
    /// start is 0.
    private static func relativePosition(_ position: Int, _ length: Int) -> Int {
        if position >= 0 { return position }
        if position < -length { return 0 }
        return length + position + 1
    }

    // MARK: - Pack formats

    /// The most bytes `string.pack` can write for `format`, its string arguments aside:
    /// every option is at most 16 bytes with less than 16 of alignment padding and takes
    /// at least one format byte (two when it names a size above 8), except `c`, whose size
    /// is the number after it.
    private static func packedBound(_ format: UnsafePointer<CChar>, _ length: Int) -> Int {
        let bytes = UnsafeRawPointer(format).assumingMemoryBound(to: UInt8.self)
        var bound = product(length, 16)
        var index = 0
        while index < length {
            let option = bytes[index]
            index += 1
            guard option == UInt8(ascii: "c") else { continue }
            var size = 0
            while index < length, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) {
                size = min(sum(product(size, 10), Int(bytes[index] - UInt8(ascii: "0"))), Int(Int32.max))
                index += 1
            }
            bound = sum(bound, size)
        }
        return bound
    }

    /// Whether `format` may hold an `s` or `z` item, whose size is read from the data.
    private static func hasVariableLengthItem(_ format: UnsafePointer<CChar>, _ length: Int) -> Bool {
        let bytes = UnsafeRawPointer(format).assumingMemoryBound(to: UInt8.self)
        for index in 0..<length where bytes[index] == UInt8(ascii: "s") || bytes[index] == UInt8(ascii: "z") {
            return true
        }
        return false
    }

    // MARK: - Arithmetic that saturates (counts are never negative)

    @inline(__always)
    static func bytes(_ count: Int) -> Int { product(count, ChargePolicy.unitsPerByte) }

    @inline(__always)
    static func elements(_ count: Int) -> Int { product(count, ChargePolicy.unitsPerElement) }

    @inline(__always)
    static func sum(_ a: Int, _ b: Int) -> Int {
        let (result, overflow) = a.addingReportingOverflow(b)
        return overflow ? .max : result
    }

    @inline(__always)
    static func product(_ a: Int, _ b: Int) -> Int {
        let (result, overflow) = a.multipliedReportingOverflow(by: b)
        return overflow ? .max : result
    }

    /// The length of `start...end`, 0 when empty.
    private static func span(_ start: Int, _ end: Int) -> Int { start <= end ? end - start + 1 : 0 }

    /// How many integers `first...last` holds, saturating, 0 when empty.
    private static func count(from first: Int, through last: Int) -> Int {
        guard last >= first else { return 0 }
        let (distance, overflow) = last.subtractingReportingOverflow(first)
        return overflow ? .max : sum(distance, 1)
    }
}
