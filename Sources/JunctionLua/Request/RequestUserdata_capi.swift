import JunctionCore
internal import CLua
internal import Foundation  // memcmp

/// `req` in Lua, and its maps `req.params`, `req.query`, `req.exts` and `req.route`: full
/// userdata that read the host's ``RuleRequest`` when a rule reads them. A rule that
/// reads `req.path` and `req.params.id` converts one string and one value — no table is
/// built unless a rule asks for a whole map (`pairs`) or a field that is a list
/// (`req.segments`, `req.route.groups`).
///
/// Each userdata holds the generation of the request it stands for and its
/// ``RequestView``. The state keeps the current request and its generation, so a view
/// kept past its evaluation (a sealed bundle cannot keep one, but defensively) raises
/// instead of reading another request. The maps convert on every read.
///
/// `req`'s own fields are cached in a table of its own, its *fields*, which is its
/// metatable's `__index`: a field read before in this request is a table lookup in the
/// VM, with no call to the host. A field not there yet reaches ``fieldMiss``, which builds
/// it and stores it in the fields. Between requests ``renumber(_:at:generation:source:)``
/// clears what the previous request cached — except the maps every request has
/// (`req.params`, `req.query`, `req.exts`), whose views read whichever request is current
/// (``followsTheRequest``), and the source when the next request's is one `req` keeps as a
/// string. The state has one `req`, so its fields stand for the state's current request.
///
/// The metatable's functions make every call that can raise only after the Swift work is
/// done and its result is in the state's scratch buffer: a `longjmp` never skips a Swift
/// reference.
enum RequestUserdata {
    /// The userdata's payload.
    private struct Block {
        var generation: Int
        var view: Int
        /// `req` only: bit `field` is set while its fields table holds that field, so
        /// renumbering clears only the fields a rule read (most rules read one or two of ten).
        var cached: UInt32 = 0
        /// `req` only: the user value whose source string its fields hold, 0 when the
        /// source there is not one `req` keeps (or none is there).
        var sourceSlot: Int32 = 0
    }

    /// The generation of the views `req.params`, `req.query` and `req.exts`: they read the
    /// state's current request, as `req` does, so one view serves every request (no new
    /// userdata, and garbage, per request) and renumbering has nothing to do for them.
    /// Between sessions there is no current request, and they read nothing.
    private static let followsTheRequest = Int.min

    /// `req`'s user values: the name of each field at the field's own number (what
    /// renumbering clears its entry by, without making a string), its fields table, then
    /// the strings of the sources it keeps.
    private static let fieldsSlot = Int32(RequestField.allCases.count) + 1

    /// Creates the maps' shared metatable and keeps it in the registry. Run in `lua_pcall`.
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

    /// Pushes a new `req` for the generation given as argument 1, with its fields table
    /// and its own metatable. A state makes one. Run in `lua_pcall`.
    static let push: lua_CFunction = { state in
        let generation = Int(lua_tointegerx(state, 1, nil))
        let slots = fieldsSlot + Int32(sourceSlots)
        let block = lua_newuserdatauv(state, MemoryLayout<Block>.size, slots).unsafelyUnwrapped  // 2
        block.storeBytes(of: Block(generation: generation, view: RequestView.request.rawValue), as: Block.self)
        for field in RequestField.allCases {
            _ = lua_pushstring(state, HostFunctions.cString(field.name))
            _ = lua_setiuservalue(state, 2, field.rawValue)
        }
        // The fields: a table sized for every field, whose misses go to `fieldMiss`.
        lua_createtable(state, 0, Int32(RequestField.allCases.count))  // 3
        lua_createtable(state, 0, 1)
        lua_pushvalue(state, 2)
        lua_pushcclosure(state, fieldMiss, 1)
        lua_setfield(state, -2, "__index")
        _ = lua_setmetatable(state, 3)
        lua_pushvalue(state, 3)
        _ = lua_setiuservalue(state, 2, fieldsSlot)
        lua_createtable(state, 0, 5)  // 4: req's own metatable
        lua_pushvalue(state, 3)
        lua_setfield(state, 4, "__index")
        jl_pushcfunction(state, refuseWrite)
        lua_setfield(state, 4, "__newindex")
        jl_pushcfunction(state, pairs)
        lua_setfield(state, 4, "__pairs")
        jl_pushcfunction(state, describe)
        lua_setfield(state, 4, "__tostring")
        _ = lua_pushstring(state, "the request is read-only")
        lua_setfield(state, 4, "__metatable")
        lua_pushvalue(state, 4)
        let context = SandboxContext.of(state)
        if context.pointee.requestOwnMetatable != LUA_NOREF {
            luaL_unref(state, jl_registryindex(), context.pointee.requestOwnMetatable)
        }
        context.pointee.requestOwnMetatable = luaL_ref(state, jl_registryindex())
        _ = lua_setmetatable(state, 2)
        lua_settop(state, 2)
        return 1
    }

    /// Makes the `req` userdata at stack slot `index` (counted from the bottom) stand for
    /// `generation` and forgets the fields it cached — except the views of the maps every
    /// request has, which follow the request (``followsTheRequest``). A cached source
    /// becomes `source`, when not 0: the user value of the next request's source
    /// (``keptSourceSlot(for:among:)``); it is left as it is when it is that one already.
    ///
    /// Allocates nothing, so it cannot raise: it only sets entries the fields table holds
    /// already (their keys are in it: a table drops no key whose value is not nil). Needs
    /// three free stack slots.
    static func renumber(_ state: OpaquePointer, at index: Int32, generation: Int, source: Int32) {
        let payload = lua_touserdata(state, index).unsafelyUnwrapped
        var block = payload.load(as: Block.self)
        block.generation = generation
        let sourceBit: UInt32 = 1 << UInt32(RequestField.source.rawValue)
        var stale = block.cached & ~keptViews
        if stale & sourceBit != 0, source != 0, source == block.sourceSlot { stale &= ~sourceBit }
        if stale != 0 {
            _ = lua_getiuservalue(state, index, fieldsSlot)
            let fields = lua_gettop(state)
            while stale != 0 {
                let slot = Int32(stale.trailingZeroBitCount)
                stale &= stale &- 1
                _ = lua_getiuservalue(state, index, slot)  // the field's name
                if slot == RequestField.source.rawValue, source != 0 {
                    _ = lua_getiuservalue(state, index, source)
                    block.sourceSlot = source
                } else {
                    lua_pushnil(state)
                    block.cached &= ~(1 << UInt32(slot))
                    if slot == RequestField.source.rawValue { block.sourceSlot = 0 }
                }
                lua_rawset(state, fields)
            }
            jl_pop(state, 1)
        }
        payload.storeBytes(of: block, as: Block.self)
    }

    /// The fields of `req` that are views every request has, by bit: kept across requests
    /// (``followsTheRequest``). Not `req.route`: a request without a route reads nil.
    private static let keptViews: UInt32 =
        1 << UInt32(RequestField.params.rawValue) | 1 << UInt32(RequestField.query.rawValue)
        | 1 << UInt32(RequestField.exts.rawValue)

    /// `req.source` has few values (an app has a handful of sources), and building its
    /// string is most of what reading it costs: `req` keeps the strings of up to
    /// `sourceSlots` sources in the user values from this one on, across requests, named
    /// by ``RequestFrame/sourceNames``. Renumbering leaves them alone.
    static let firstSourceSlot = fieldsSlot + 1
    private static let sourceSlots = 4

    /// The user value of `req` that holds `source` as a string, among the sources kept in
    /// that order (``RequestFrame/sourceNames``); 0 when it is not kept.
    @inline(__always)
    static func keptSourceSlot(for source: RequestSource, among names: [RequestSource]) -> Int32 {
        for (offset, name) in names.enumerated() where identical(name.rawValue, source.rawValue) {
            return firstSourceSlot + Int32(offset)
        }
        for (offset, name) in names.enumerated() where sameBytes(name.rawValue, source.rawValue) {
            return firstSourceSlot + Int32(offset)
        }
        return 0
    }

    /// Pushes a map's view userdata. May raise.
    private static func pushView(_ state: OpaquePointer?, generation: Int, view: RequestView) {
        let block = lua_newuserdatauv(state, MemoryLayout<Block>.size, 0).unsafelyUnwrapped
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

    /// `view.KEY` of a map (`req.params.id`).
    private static let index: lua_CFunction = { state in
        let block = lua_touserdata(state, 1).unsafelyUnwrapped.load(as: Block.self)
        let view = RequestView(rawValue: block.view) ?? .request
        guard view != .request, lua_type(state, 2) == LUA_TSTRING else {
            lua_pushnil(state)
            return 1
        }
        var length = 0
        // A string: converting it cannot raise.
        let key = UnsafeRawBufferPointer(start: lua_tolstring(state, 2, &length), count: length)
        let prepared = prepare(state, view: view, field: nil, key: key, generation: block.generation)
        raiseIfFailed(prepared, state: state)
        push(prepared, state: state, generation: block.generation)
        return 1
    }

    /// `req.KEY` for a key `req`'s fields table (argument 1) does not hold: builds the
    /// field and stores it there, for the rest of the request. `req` is the closure's
    /// upvalue.
    private static let fieldMiss: lua_CFunction = { state in
        guard lua_type(state, 2) == LUA_TSTRING else {
            lua_pushnil(state)
            return 1
        }
        var length = 0
        // A string: converting it cannot raise.
        let key = UnsafeRawBufferPointer(start: lua_tolstring(state, 2, &length), count: length)
        guard let field = RequestField(key: key) else {
            lua_pushnil(state)
            return 1
        }
        let request = jl_upvalueindex(1)
        let generation = lua_touserdata(state, request).unsafelyUnwrapped.load(as: Block.self).generation
        // A field kept across requests (a map's view, a source `req` keeps) is there already
        // on an engine that decided before: building it is not charged, or a rule could
        // tell by its count what earlier decisions read. It is built once per engine, or
        // per source.
        let keptAcross = field == .source || (RequestView(field: field).map { $0 != .route } ?? false)
        var kept: Int32 = 0
        if field == .source { kept = keptSourceSlot(state, generation: generation) }
        if kept != 0 {
            _ = lua_getiuservalue(state, request, kept)
        } else {
            let prepared = prepare(
                state, view: .request, field: field, key: key, generation: generation, charged: !keptAcross)
            raiseIfFailed(prepared, state: state)
            if keptAcross {
                MemoryBudget.unmetered(state) { push(prepared, state: state, generation: generation) }
            } else {
                push(prepared, state: state, generation: generation)
            }
        }
        if lua_type(state, -1) == LUA_TNIL { return 1 }  // `req.route` without a route: nothing to keep
        // Whether storing the field grows the table depends on what earlier requests left in
        // it (a cleared key a collection has since let go needs a new node): not charged.
        MemoryBudget.unmetered(state) {
            lua_pushvalue(state, 2)
            lua_pushvalue(state, -2)
            lua_rawset(state, 1)  // may allocate, and raise: nothing is recorded yet
        }
        if field == .source, kept == 0 {
            kept = keepSourceSlot(state)
            if kept != 0 {
                lua_pushvalue(state, -1)
                _ = lua_setiuservalue(state, request, kept)  // a slot that exists: cannot raise
            }
        }
        let payload = lua_touserdata(state, request).unsafelyUnwrapped
        var updated = payload.load(as: Block.self)
        updated.cached |= 1 << UInt32(field.rawValue)
        if field == .source { updated.sourceSlot = kept }
        payload.storeBytes(of: updated, as: Block.self)
        return 1
    }

    /// The user value of `req` that holds the current request's source as a string, or 0
    /// (none kept, or a stale `req`: the caller then takes the path that raises).
    @inline(never)
    private static func keptSourceSlot(_ handle: OpaquePointer?, generation: Int) -> Int32 {
        let frame = LuaState.owner(of: handle).frame
        guard generation == frame.generation, let source = frame.request?.source else { return 0 }
        return keptSourceSlot(for: source, among: frame.sourceNames)
    }

    /// Whether two strings have the same UTF-8 bytes — by bytes: Swift's `==` on strings is
    /// canonical equivalence, and Lua must get the request's own bytes ("café" precomposed
    /// and decomposed are two sources to a rule). A short string's bytes are copied to the
    /// stack to compare (a bridged string may be copied to native storage first).
    static func sameBytes(_ a: String, _ b: String) -> Bool {
        var (a, b) = (a, b)
        return a.withUTF8 { x in
            b.withUTF8 { y in
                x.count == y.count && (x.isEmpty || memcmp(x.baseAddress!, y.baseAddress!, x.count) == 0)
            }
        }
    }

    /// Whether `a` and `b` are the very same string value, bit for bit (the same short
    /// string, or the same storage): then their bytes are the same. A source the app
    /// passes is most often a constant, so this finds it without reading its bytes.
    @inline(__always)
    static func identical(_ a: String, _ b: String) -> Bool {
        withUnsafeBytes(of: a) { x in
            withUnsafeBytes(of: b) { y in memcmp(x.baseAddress!, y.baseAddress!, x.count) == 0 }
        }
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
        case .view(let view):
            pushView(state, generation: view == .route ? generation : followsTheRequest, view: view)
        }
    }

    /// The Swift half of `__index` and `__pairs`: finds the state's current request and
    /// prepares `key` of `view` (all of it for a `nil` key); `field` is what `key` names
    /// in `req`, when `__index` found it already. `charged`: whether the read is charged
    /// ``readCost``. Every Swift value it makes is gone when it returns.
    @inline(never)
    private static func prepare(
        _ handle: OpaquePointer?, view: RequestView, field: RequestField?, key: UnsafeRawBufferPointer?,
        generation: Int,
        charged: Bool = true
    ) -> Prepared {
        let owner = LuaState.owner(of: handle)
        let frame = owner.frame
        guard generation == frame.generation || generation == followsTheRequest, let request = frame.request else {
            return .stale
        }
        // Work in Swift the count cannot see: a read that gets here takes about as long as
        // fifty VM instructions (a field `req` has cached never gets here).
        guard !charged || SandboxContext.charge(handle, readCost + (key?.count ?? 0)) else { return .overBudget }
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
            // `req.params.id` of a path parameter as captured, found by the key's bytes.
            if view == .params, let key, var text = request.capturedText(named: key) {
                text.withUTF8 { owner.scratch.store(UnsafeRawBufferPointer($0)) }
                return .string(UnsafeRawPointer(owner.scratch.base), text.utf8.count)
            }
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
        let context = SandboxContext.of(state)
        lua_rawgeti(state, jl_registryindex(), lua_Integer(context.pointee.requestMetatable))
        var isView = lua_rawequal(state, -1, -2) != 0
        jl_pop(state, 1)
        if !isView {
            lua_rawgeti(state, jl_registryindex(), lua_Integer(context.pointee.requestOwnMetatable))
            isView = lua_rawequal(state, -1, -2) != 0
            jl_pop(state, 1)
        }
        jl_pop(state, 1)
        guard isView else { return nil }
        let block = lua_touserdata(state, index).unsafelyUnwrapped.load(as: Block.self)
        let frame = LuaState.owner(of: state).frame
        guard block.generation == frame.generation || block.generation == followsTheRequest,
            let request = frame.request,
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
                _ = lua_getfield(state, 1, HostFunctions.cString(field.name))  // through the fields table
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
        _ = lua_getfield(state, 1, "url")  // through the fields table
        _ = lua_pushstring(state, "request ")
        jl_insert(state, -2)
        lua_concat(state, 2)
        return 1
    }
}
