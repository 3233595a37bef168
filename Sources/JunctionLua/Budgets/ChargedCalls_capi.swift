internal import CLua

/// Puts ``ChargePolicy`` into effect: each function it lists becomes a C closure that
/// measures the call (``WorkCost``), charges it to the evaluation's budget, and calls the
/// C original, its upvalue, directly.
///
/// Installed right after the libraries open and before the ``SandboxPrelude`` runs, so
/// the originals the prelude keeps in its upvalues (`insert`, `concat`, `load`, …) are the
/// charged ones too. Everything here runs where Lua may raise and holds only integers,
/// raw pointers and C function pointers.
enum ChargedCalls {
    /// Registry keys (by address) of `utf8.codes`'s original iterators.
    private static let strictStepKey = LuaAddressKey()
    private static let laxStepKey = LuaAddressKey()

    /// Replaces every function of ``ChargePolicy`` in its library with its charged
    /// closure. Run in `lua_pcall`, once per state, before the prelude.
    static let install: lua_CFunction = { state in
        keepCodeSteps(state)
        var index = 0
        while let entry = ChargePolicy.function(at: index) {
            _ = lua_getglobal(state, HostFunctions.cString(entry.library))
            _ = lua_getfield(state, -1, HostFunctions.cString(entry.name))
            // The original runs in the closure's frame, so it must not read upvalues of its own.
            guard lua_tocfunction(state, -1) != nil, lua_getupvalue(state, -1, 1) == nil else {
                return refuse(state, entry)
            }
            lua_pushcclosure(state, function(charging: entry.cost), 1)
            lua_setfield(state, -2, HostFunctions.cString(entry.name))  // pops the closure
            jl_pop(state, 1)
            index += 1
        }
        return 0
    }

    /// The C function of the charged closures of `cost`; upvalue 1 holds the original.
    /// One per model, so each measures with its model's code alone, inlined, instead of
    /// reading the model from an upvalue and switching on it in every call.
    static func function(charging cost: WorkCost) -> lua_CFunction {
        switch cost {
        case .textBytes: { state in ChargedCalls.callUpvalueOriginal(state, .textBytes) }
        case .repetition: { state in ChargedCalls.callUpvalueOriginal(state, .repetition) }
        case .substring: { state in ChargedCalls.callUpvalueOriginal(state, .substring) }
        case .bytePositions: { state in ChargedCalls.callUpvalueOriginal(state, .bytePositions) }
        case .arguments: { state in ChargedCalls.callUpvalueOriginal(state, .arguments) }
        case .format: { state in ChargedCalls.callUpvalueOriginal(state, .format) }
        case .pack: { state in ChargedCalls.callUpvalueOriginal(state, .pack) }
        case .packSize: { state in ChargedCalls.callUpvalueOriginal(state, .packSize) }
        case .unpack: { state in ChargedCalls.callUpvalueOriginal(state, .unpack) }
        case .insertion: { state in ChargedCalls.callUpvalueOriginal(state, .insertion) }
        case .removal: { state in ChargedCalls.callUpvalueOriginal(state, .removal) }
        case .move: { state in ChargedCalls.callUpvalueOriginal(state, .move) }
        case .concatenation: { state in ChargedCalls.callUpvalueOriginal(state, .concatenation) }
        case .sorting: { state in ChargedCalls.callUpvalueOriginal(state, .sorting) }
        case .tableUnpack: { state in ChargedCalls.callUpvalueOriginal(state, .tableUnpack) }
        case .codepoints: { state in ChargedCalls.callUpvalueOriginal(state, .codepoints) }
        case .utf8Length: { state in ChargedCalls.callUpvalueOriginal(state, .utf8Length) }
        case .utf8Offset: { state in ChargedCalls.callUpvalueOriginal(state, .utf8Offset) }
        case .codes: { state in ChargedCalls.codes(state) }
        case .codeStep: { state in ChargedCalls.callUpvalueOriginal(state, .codeStep) }  // no row; see codeStep(_:key:)
        case .chunk: { state in ChargedCalls.callUpvalueOriginal(state, .chunk) }
        case .rawEquality: { state in ChargedCalls.callUpvalueOriginal(state, .rawEquality) }
        case .selection: { state in ChargedCalls.callUpvalueOriginal(state, .selection) }
        case .numeral: { state in ChargedCalls.callUpvalueOriginal(state, .numeral) }
        }
    }

    /// A charged closure's call: its original is upvalue 1.
    @inline(__always)
    private static func callUpvalueOriginal(_ state: OpaquePointer?, _ cost: WorkCost) -> Int32 {
        call(lua_tocfunction(state, jl_upvalueindex(1)).unsafelyUnwrapped, cost, state)
    }

    /// `utf8.codes`'s iterator, strict and lax, charged for the bytes each step skips.
    /// Light C functions, as the originals are, so a bundle may keep one past loading.
    static let strictCodeStep: lua_CFunction = { state in codeStep(state, key: strictStepKey) }
    static let laxCodeStep: lua_CFunction = { state in codeStep(state, key: laxStepKey) }

    /// Measures the call, charges it, raising the budget error instead of starting a call
    /// that costs more than is left, then runs `original` in the caller's frame (so its
    /// errors name the function as the rule called it) and charges what only its result
    /// tells.
    @inline(__always)
    private static func call(_ original: lua_CFunction, _ cost: WorkCost, _ state: OpaquePointer?) -> Int32 {
        let estimate = cost.estimate(state)
        if estimate.units > 0, !SandboxContext.charge(state, estimate.units) {
            return SandboxContext.raiseBudgetExceeded(state)
        }
        if case .answerEmptyString = estimate.afterwards {
            jl_pushstring(state, HostFunctions.cString(""))
            return 1
        }
        let results = original(state)
        let after: Int
        switch estimate.afterwards {
        case .nothing, .answerEmptyString:
            return results
        case .resultBytes(let prepaid):
            let length = lua_type(state, -1) == LUA_TSTRING ? Int(lua_rawlen(state, -1)) : 0
            after = WorkCost.bytes(length - prepaid)
        case .scan(let start, let ifNotFound):
            let scanned =
                lua_type(state, -1) == LUA_TNUMBER ? abs(Int(lua_tointegerx(state, -1, nil)) - 1 - start) : ifNotFound
            after = WorkCost.bytes(scanned)
        case .chargedIterator(let lax):
            // The original returned (iterator, s, 0): the stack has room, it pushed three.
            jl_pushcfunction(state, lax ? laxCodeStep : strictCodeStep)
            jl_replace(state, -4)
            return results
        }
        if after > 0, !SandboxContext.charge(state, after) { return SandboxContext.raiseBudgetExceeded(state) }
        return results
    }

    /// Lua's message for a malformed UTF-8 sequence (lutf8lib.c's `MSGInvalid`).
    private static let invalidCode: StaticString = "invalid UTF-8 code"

    /// `utf8.codes(s [, lax])`, as Lua 5.4.6 and later check it on every release the sandbox
    /// runs on: a string that starts with a continuation byte is refused at once. (5.4.4's
    /// original skipped such bytes without a word; 5.4.6 made them errors.)
    private static func codes(_ state: OpaquePointer?) -> Int32 {
        if lua_type(state, 1) == LUA_TSTRING, let text = lua_tolstring(state, 1, nil),
            UInt8(bitPattern: text[0]) & 0xC0 == 0x80
        {
            return luaL_argerror(state, 1, HostFunctions.cString(invalidCode))
        }
        return callUpvalueOriginal(state, .codes)
    }

    /// One charged step of `utf8.codes`'s iterator: its original, kept in the registry. As on
    /// Lua 5.4.6 and later, a character followed by a continuation byte is an error, so every
    /// release refuses the sequences 5.4.4's iterator stepped over.
    private static func codeStep(_ state: OpaquePointer?, key: LuaAddressKey) -> Int32 {
        _ = lua_rawgetp(state, jl_registryindex(), key.address)  // a C function: no allocation
        let original = lua_tocfunction(state, -1).unsafelyUnwrapped
        jl_pop(state, 1)
        let results = call(original, .codeStep, state)
        guard results == 2 else { return results }
        // The original returned (position, code) for the character at byte `position`, and
        // argument 1 is the string it read (`luaL_checklstring` passed).
        var length = 0
        let text = UnsafeRawPointer(lua_tolstring(state, 1, &length)).assumingMemoryBound(to: UInt8.self)
        let start = Int(lua_tointegerx(state, -2, nil)) - 1
        // The lead byte's run of high 1 bits is the sequence's length (none: one byte); the
        // original decoded it, so it ends within the string, whose NUL follows its last byte.
        let lead = text[start]
        let size = lead < 0x80 ? 1 : (~lead).leadingZeroBitCount
        if start + size <= length, text[start + size] & 0xC0 == 0x80 {
            return jl_error_string(state, HostFunctions.cString(invalidCode))
        }
        return results
    }

    /// Keeps the iterators the original `utf8.codes` returns, strict and lax, in the registry.
    private static func keepCodeSteps(_ state: OpaquePointer?) {
        _ = lua_getglobal(state, HostFunctions.cString("utf8"))
        _ = lua_getfield(state, -1, HostFunctions.cString("codes"))
        keepCodeStep(state, lax: false, key: strictStepKey)
        keepCodeStep(state, lax: true, key: laxStepKey)
        jl_pop(state, 2)
    }

    /// Calls the `utf8.codes` on top of the stack and keeps the iterator it returns under `key`.
    private static func keepCodeStep(_ state: OpaquePointer?, lax: Bool, key: LuaAddressKey) {
        lua_pushvalue(state, -1)
        jl_pushstring(state, HostFunctions.cString(""))
        lua_pushboolean(state, lax ? 1 : 0)
        jl_call(state, 2, 1)  // codes("", lax) → its iterator
        lua_rawsetp(state, jl_registryindex(), key.address)
    }

    /// Raises "cannot charge LIBRARY.NAME: …" for a row whose function is not a plain C one.
    private static func refuse(_ state: OpaquePointer?, _ entry: ChargePolicy.Entry) -> Int32 {
        jl_pushstring(state, HostFunctions.cString("cannot charge "))
        jl_pushstring(state, HostFunctions.cString(entry.library))
        jl_pushstring(state, HostFunctions.cString("."))
        jl_pushstring(state, HostFunctions.cString(entry.name))
        jl_pushstring(state, HostFunctions.cString(": it is not a C function without upvalues (another Lua?)"))
        lua_concat(state, 5)
        return lua_error(state)
    }
}
