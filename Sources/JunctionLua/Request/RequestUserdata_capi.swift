import JunctionCore
internal import CLua
internal import Foundation  // memcmp

/// `req` in Lua, and its maps `req.params`, `req.query`, `req.exts` and `req.route`: full
/// userdata that read the host's ``RuleRequest`` when a rule reads them. A rule that
/// reads `req.path` and `req.params.id` converts one string and one value — no table is
/// built unless a rule asks for a whole map (`pairs`) or a field that is a list
/// (`req.segments`, `req.route.groups`).
///
/// Each userdata holds the generation of the request it stands for, its
/// ``RequestView`` and which of its user values hold a cached field. The state keeps the current request and its generation, so a
/// view kept past its evaluation (a sealed bundle cannot keep one, but defensively)
/// raises instead of reading another request. `req`'s own fields are cached in its user
/// values; the maps convert on every read.
///
/// The metatable's functions make every call that can raise only after the Swift work is
/// done and its result is in the state's scratch buffer: a `longjmp` never skips a Swift
/// reference.
enum RequestUserdata {
    /// The userdata's payload.
    private struct Block {
        var generation: Int
        var view: Int
        /// Bit `slot` is set while that user value holds a cached field, so renumbering
        /// clears only the fields a rule read (most rules read one or two of ten).
        var cached: UInt32 = 0
    }

    /// Creates the shared metatable and keeps it in the registry. Run in `lua_pcall`.
    static let installMetatable: lua_CFunction = { state in
        lua_createtable(state, 0, 5)
        jl_pushcfunction(state, index)
        lua_setfield(state, -2, "__index")
        jl_pushcfunction(state, refuseWrite)
        lua_setfield(state, -2, "__newindex")
        jl_pushcfunction(state, pairs)
        lua_setfield(state, -2, "__pairs")
        jl_pushcfunction(state, describe)
        lua_setfield(state, -2, "__tostring")
        _ = lua_pushstring(state, "the request is read-only")
        lua_setfield(state, -2, "__metatable")
        SandboxContext.of(state).pointee.requestMetatable = luaL_ref(state, jl_registryindex())
        return 0
    }

    /// Pushes a new `req` for the generation given as argument 1. Run in `lua_pcall`.
    static let push: lua_CFunction = { state in
        pushView(state, generation: Int(lua_tointegerx(state, 1, nil)), view: .request)
        return 1
    }

    /// Makes the `req` userdata at stack slot `index` (counted from the bottom) stand for
    /// `generation` and forgets the fields it cached — except the views `req.params`,
    /// `req.query` and `req.exts`, which every request has: those are renumbered too and
    /// kept, so a rule reading `req.params.id` does not make a new userdata (and garbage)
    /// per request. A kept view then reads the new request, as `req` itself does.
    /// Allocates nothing, so it cannot raise. Needs one free stack slot.
    static func renumber(_ state: OpaquePointer, at index: Int32, generation: Int) {
        let block = lua_touserdata(state, index).unsafelyUnwrapped
        var cached = block.load(as: Block.self).cached
        var kept: UInt32 = 0
        while cached != 0 {
            let slot = Int32(cached.trailingZeroBitCount)
            cached &= cached &- 1
            if keepsView(slot), lua_getiuservalue(state, index, slot) == LUA_TUSERDATA {
                let view = lua_touserdata(state, -1).unsafelyUnwrapped
                var viewBlock = view.load(as: Block.self)
                viewBlock.generation = generation
                view.storeBytes(of: viewBlock, as: Block.self)
                jl_pop(state, 1)
                kept |= 1 << UInt32(slot)
                continue
            }
            if keepsView(slot) { jl_pop(state, 1) }
            lua_pushnil(state)
            _ = lua_setiuservalue(state, index, slot)
        }
        block.storeBytes(
            of: Block(generation: generation, view: RequestView.request.rawValue, cached: kept), as: Block.self)
    }

    /// Whether the user value `slot` of `req` caches a view every request has (so it can be
    /// renumbered rather than rebuilt). Not `req.route`: a request without a route reads nil.
    private static func keepsView(_ slot: Int32) -> Bool {
        slot == RequestField.params.rawValue || slot == RequestField.query.rawValue
            || slot == RequestField.exts.rawValue
    }

    /// `req.source` has few values (an app has a handful of sources), and building its
    /// string is most of what reading it costs: `req` keeps the strings of up to
    /// `sourceSlots` sources in the user values from this one on, across requests, named
    /// by ``RequestFrame/sourceNames``. Renumbering leaves them alone.
    static let firstSourceSlot = Int32(RequestField.allCases.count) + 1
    private static let sourceSlots = 4

    /// Pushes a view userdata. May raise.
    private static func pushView(_ state: OpaquePointer?, generation: Int, view: RequestView) {
        let slots = view == .request ? Int32(RequestField.allCases.count + sourceSlots) : 0
        let block = lua_newuserdatauv(state, MemoryLayout<Block>.size, slots).unsafelyUnwrapped
        block.storeBytes(of: Block(generation: generation, view: view.rawValue), as: Block.self)
        lua_rawgeti(state, jl_registryindex(), lua_Integer(SandboxContext.of(state).pointee.requestMetatable))
        lua_setmetatable(state, -2)
    }

    /// The instructions a read of `req` that reaches Swift is charged, besides its key's
    /// bytes: about what such a read costs in time, so that reading a large request field
    /// by field exhausts the instruction budget before the time backstop.
    static let readCost = 50

    /// What ``prepare(_:view:field:key:generation:)`` concluded; strings and encoded values are
    /// in the scratch buffer.
    private enum Prepared {
        case stale
        case nilValue
        case boolean(Bool)
        case integer(Int64)
        case number(Double)
        case string(UnsafeRawPointer, Int)
        case encoded(UnsafeRawPointer)
        case view(RequestView)
        case failure(UnsafeRawPointer, Int)
        /// The budget cannot pay for what the read needs (parsing the query).
        case overBudget
    }

    /// `view.KEY`.
    private static let index: lua_CFunction = { state in
        let block = lua_touserdata(state, 1).unsafelyUnwrapped.load(as: Block.self)
        let view = RequestView(rawValue: block.view) ?? .request
        guard lua_type(state, 2) == LUA_TSTRING else {
            lua_pushnil(state)
            return 1
        }
        var length = 0
        // A string: converting it cannot raise.
        let key = UnsafeRawBufferPointer(start: lua_tolstring(state, 2, &length), count: length)
        var slot: Int32 = 0
        if view == .request {
            guard let field = RequestField(key: key) else {
                lua_pushnil(state)
                return 1
            }
            slot = field.rawValue
            if lua_getiuservalue(state, 1, slot) != LUA_TNIL { return 1 }
            jl_pop(state, 1)
            if field == .source {
                let kept = keptSourceSlot(state, generation: block.generation)
                if kept != 0 {
                    _ = lua_getiuservalue(state, 1, kept)
                    return 1
                }
            }
        }
        let prepared = prepare(
            state, view: view, field: RequestField(rawValue: slot), key: key, generation: block.generation)
        raiseIfFailed(prepared, state: state)
        push(prepared, state: state, generation: block.generation)
        if slot != 0 {
            lua_pushvalue(state, -1)
            _ = lua_setiuservalue(state, 1, slot)
            let payload = lua_touserdata(state, 1).unsafelyUnwrapped
            var updated = payload.load(as: Block.self)
            updated.cached |= 1 << UInt32(slot)
            payload.storeBytes(of: updated, as: Block.self)
            if slot == RequestField.source.rawValue {
                let kept = keepSourceSlot(state)
                if kept != 0 {
                    lua_pushvalue(state, -1)
                    _ = lua_setiuservalue(state, 1, kept)  // a slot that exists: cannot raise
                }
            }
        }
        return 1
    }

    /// The user value of `req` that holds the current request's source as a string, or 0
    /// (none kept, or a stale `req`: the caller then takes the path that raises).
    @inline(never)
    private static func keptSourceSlot(_ handle: OpaquePointer?, generation: Int) -> Int32 {
        let frame = LuaState.owner(of: handle).frame
        guard generation == frame.generation, let source = frame.request?.source else { return 0 }
        // By bytes: Swift's `==` on strings is canonical equivalence, and Lua must get the
        // request's own bytes ("café" precomposed and decomposed are two sources to a rule).
        for (offset, name) in frame.sourceNames.enumerated() where sameBytes(name.rawValue, source.rawValue) {
            return firstSourceSlot + Int32(offset)
        }
        return 0
    }

    /// Whether two strings have the same UTF-8 bytes. `==` first: strings that are not
    /// canonically equivalent never have the same bytes, and it is fast for the common
    /// case (ASCII, or the very same string); only equal ones are then compared by bytes.
    @inline(__always)
    private static func sameBytes(_ a: String, _ b: String) -> Bool {
        guard a == b, a.utf8.count == b.utf8.count else { return false }
        // Both are contiguous UTF-8 (native strings): one memcmp over the bytes.
        let contiguous = a.utf8.withContiguousStorageIfAvailable { x in
            b.utf8.withContiguousStorageIfAvailable { y in memcmp(x.baseAddress!, y.baseAddress!, x.count) == 0 }
        }
        return (contiguous ?? nil) ?? a.utf8.elementsEqual(b.utf8)
    }

    /// The user value of `req` to keep the source string just built in, recorded as
    /// holding it; 0 once `sourceSlots` sources are kept. The caller stores the string
    /// right away, with nothing that can raise in between.
    @inline(never)
    private static func keepSourceSlot(_ handle: OpaquePointer?) -> Int32 {
        let frame = LuaState.owner(of: handle).frame
        guard let source = frame.builtSource, frame.sourceNames.count < sourceSlots,
            !frame.sourceNames.contains(where: { sameBytes($0.rawValue, source.rawValue) })
        else { return 0 }
        frame.sourceNames.append(source)
        return firstSourceSlot + Int32(frame.sourceNames.count - 1)
    }

    /// Raises the Lua error a stale view or a failed conversion means; returns otherwise.
    /// Holds only raw pointers when it raises.
    private static func raiseIfFailed(_ prepared: Prepared, state: OpaquePointer?) {
        switch prepared {
        case .stale:
            _ = jl_error_string(state, "req may be read only during the call that received it")
        case .failure(let bytes, let count):
            _ = lua_pushlstring(state, bytes.assumingMemoryBound(to: CChar.self), count)
            _ = lua_error(state)
        case .overBudget:
            _ = SandboxContext.raiseBudgetExceeded(state)
        default:
            return
        }
    }

    /// Pushes what `prepare` concluded (not `stale` or `failure`). May raise.
    private static func push(_ prepared: Prepared, state: OpaquePointer?, generation: Int) {
        switch prepared {
        case .nilValue, .stale, .failure, .overBudget: lua_pushnil(state)
        case .boolean(let flag): lua_pushboolean(state, flag ? 1 : 0)
        case .integer(let number): lua_pushinteger(state, number)
        case .number(let number): lua_pushnumber(state, number)
        case .string(let bytes, let count): _ = lua_pushlstring(state, bytes.assumingMemoryBound(to: CChar.self), count)
        case .encoded(let start):
            var cursor = start
            RuleValueWriter.decode(state, at: &cursor, readOnly: true)
        case .view(let view): pushView(state, generation: generation, view: view)
        }
    }

    /// The Swift half of `__index` and `__pairs`: finds the state's current request and
    /// prepares `key` of `view` (all of it for a `nil` key); `field` is what `key` names
    /// in `req`, when `__index` found it already. Every Swift value it makes is gone when
    /// it returns.
    @inline(never)
    private static func prepare(
        _ handle: OpaquePointer?, view: RequestView, field: RequestField?, key: UnsafeRawBufferPointer?, generation: Int
    ) -> Prepared {
        let owner = LuaState.owner(of: handle)
        let frame = owner.frame
        guard generation == frame.generation, let request = frame.request else { return .stale }
        // Work in Swift the count cannot see: a read that gets here takes about as long as
        // fifty VM instructions (a field already cached in a user value never does).
        guard SandboxContext.charge(handle, readCost + (key?.count ?? 0)) else { return .overBudget }
        let name: String?
        let value: RuleValue?
        if view == .request, let field {
            name = nil
            if let map = RequestView(field: field) {
                if map == .route, request.route == nil { return .nilValue }
                return .view(map)
            }
            switch field {
            case .url: value = .string(request.url)
            case .scheme: value = .string(request.scheme)
            case .host: value = .string(request.host)
            case .path: value = .string(request.path)
            case .source:
                frame.builtSource = request.source  // what `keepSourceSlot` records
                value = .string(request.source.rawValue)
            default: value = .array(request.segments.map(RuleValue.string))
            }
        } else {
            name = key.map { String(decoding: $0, as: UTF8.self) }
            // The query is parsed once per request when a name is read, and the parse is
            // charged; a whole map (`pairs`) is built anew and charged each time.
            switch (view, name) {
            case (.query, let name?):
                guard let values = frame.queryValues(of: request) else { return .overBudget }
                value = values[name].map(RuleValue.string)
            case (.params, let name?):
                var overBudget = false
                value = request.param(name) { key in
                    guard let values = frame.queryValues(of: request) else {
                        overBudget = true
                        return nil
                    }
                    return values[key]
                }
                if overBudget { return .overBudget }
            case (.query, nil), (.params, nil):
                guard SandboxContext.charge(handle, request.queryLength) else { return .overBudget }
                value = Self.wholeOrKey(of: view, in: request, key: nil)
            default:
                value = Self.wholeOrKey(of: view, in: request, key: name)
            }
        }
        guard let value else { return .nilValue }
        switch value {
        case .nil: return .nilValue
        case .bool(let flag): return .boolean(flag)
        case .int(let number): return .integer(number)
        case .double(let number): return .number(number)
        case .string(var text):
            text.withUTF8 { owner.scratch.store(UnsafeRawBufferPointer($0)) }
            return .string(UnsafeRawPointer(owner.scratch.base), text.utf8.count)
        default:
            do throws(RuleValueConversionFailure) {
                try RuleValueWriter.encode(value, limits: frame.valueLimits, into: &owner.scratch)
                return .encoded(UnsafeRawPointer(owner.scratch.base))
            } catch {
                let root = "\(view.name)" + (name.map { "." + $0 } ?? "")
                var message = error.luaError(chunkName: "req", root: root, verb: "cannot pass", direction: "to Lua")
                    .message
                message.withUTF8 { owner.scratch.store(UnsafeRawBufferPointer($0)) }
                return .failure(UnsafeRawPointer(owner.scratch.base), message.utf8.count)
            }
        }
    }

    /// One key of a map view, or all of it for a `nil` key (`req` itself: every field).
    private static func wholeOrKey(of view: RequestView, in request: RuleRequest, key: String?) -> RuleValue? {
        switch view {
        case .request:
            guard key == nil else { return nil }
            var fields: [String: RuleValue] = [
                "url": .string(request.url), "scheme": .string(request.scheme), "host": .string(request.host),
                "path": .string(request.path), "source": .string(request.source.rawValue),
                "segments": .array(request.segments.map(RuleValue.string)),
                "params": .table(request.params), "query": .table(request.query), "exts": .table(request.exts),
            ]
            if let route = request.routeFields { fields["route"] = .table(route) }
            return .table(fields)
        case .params:
            guard let key else { return .table(request.params) }
            return request.param(key)
        case .query:
            guard let key else { return .table(request.query) }
            return request.uri.queryItems(plusAsSpace: request.plusAsSpace).first(key).map(RuleValue.string)
        case .exts:
            guard let key else { return .table(request.exts) }
            return request.exts[key]
        case .route:
            guard let route = request.route else { return nil }
            switch key {
            case nil: return request.routeFields.map(RuleValue.table)
            case "name": return .string(route.name)
            case "pattern": return .string(route.pattern)
            case "target": return .string(route.target)
            case "exported": return .bool(route.isExported)
            case "groups": return .array(route.groups.map(RuleValue.string))
            case "meta": return .table(route.meta)
            default: return nil
            }
        }
    }

    /// The whole value a view stands for, when the userdata at `index` is one — for
    /// reading a rule's result (`rewrite { params = req.params }`). Runs in Swift, outside
    /// any Lua call. `nil` when it is another userdata; a stale view reads as `nil` too.
    static func value(at index: Int32, in state: OpaquePointer) -> RuleValue?? {
        guard lua_getmetatable(state, index) != 0 else { return nil }
        lua_rawgeti(state, jl_registryindex(), lua_Integer(SandboxContext.of(state).pointee.requestMetatable))
        let isView = lua_rawequal(state, -1, -2) != 0
        jl_pop(state, 2)
        guard isView else { return nil }
        let block = lua_touserdata(state, index).unsafelyUnwrapped.load(as: Block.self)
        let frame = LuaState.owner(of: state).frame
        guard block.generation == frame.generation, let request = frame.request,
            let view = RequestView(rawValue: block.view)
        else { return .some(nil) }
        return .some(wholeOrKey(of: view, in: request, key: nil))
    }

    /// Writing to a view: refused.
    private static let refuseWrite: lua_CFunction = { state in
        jl_error_string(state, "req is read-only; return rewrite{ params = { ... } } to change parameters")
    }

    /// `pairs(view)`: a table of everything the view holds, iterated in
    /// ``OrderedIteration``'s fixed order.
    private static let pairs: lua_CFunction = { state in
        let block = lua_touserdata(state, 1).unsafelyUnwrapped.load(as: Block.self)
        let view = RequestView(rawValue: block.view) ?? .request
        lua_settop(state, 1)
        if view == .request {
            lua_createtable(state, 0, Int32(RequestField.allCases.count))  // 2
            for field in RequestField.allCases {
                jl_pushcfunction(state, index)
                lua_pushvalue(state, 1)
                _ = lua_pushstring(state, HostFunctions.cString(field.name))
                jl_call(state, 2, 1)
                lua_setfield(state, 2, HostFunctions.cString(field.name))  // nil leaves no entry
            }
        } else {
            let prepared = prepare(state, view: view, field: nil, key: nil, generation: block.generation)
            raiseIfFailed(prepared, state: state)
            push(prepared, state: state, generation: block.generation)
            if lua_type(state, 2) != LUA_TTABLE {
                jl_pop(state, 1)
                lua_createtable(state, 0, 0)
            }
        }
        // The snapshot's fields (a read-only table's through its backing) in the fixed order.
        if ReadOnlyTables.pushBacking(state, of: 2) { jl_replace(state, 2) }
        OrderedIteration.pushIterator(state, over: 2)  // 3
        jl_insert(state, 2)  // iterator, table
        lua_pushnil(state)
        return 3
    }

    /// `tostring(req)`: `request myapp://...`; a map: `req.params`.
    private static let describe: lua_CFunction = { state in
        let block = lua_touserdata(state, 1).unsafelyUnwrapped.load(as: Block.self)
        guard block.view == RequestView.request.rawValue else {
            _ = lua_pushstring(state, HostFunctions.cString((RequestView(rawValue: block.view) ?? .request).name))
            return 1
        }
        lua_settop(state, 1)
        jl_pushcfunction(state, index)
        lua_pushvalue(state, 1)
        _ = lua_pushstring(state, "url")
        jl_call(state, 2, 1)
        _ = lua_pushstring(state, "request ")
        jl_insert(state, -2)
        lua_concat(state, 2)
        return 1
    }
}
