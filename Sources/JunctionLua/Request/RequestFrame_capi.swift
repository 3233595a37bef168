internal import CLua
import JunctionCore

/// The request rules read as `req`, and the stack slots that pass it and `ctx` to every
/// rule a ``RuleSession`` calls.
///
/// A session's slots, from its base: `req` (base + 1), `ctx` (base + 2), the message
/// handler (base + 3) and the array of declared functions (base + 4). Every call of the
/// session copies `req` and `ctx` from there and calls through the handler and array, so
/// a call pushes only its function and arguments.
///
/// Invariants:
/// - A session on an empty stack opens at base 0, and its slots stay at the bottom of
///   the stack after it closes (they are *resident*): the next session on an otherwise
///   empty stack finds them and only renumbers `req` (and replaces `ctx` when its
///   context snapshot is another). Everything else that uses the stack pushes above what
///   it finds and drops only that, so resident slots are gone only when the stack was
///   emptied — and then the height is 0, which ``open(context:)`` sees.
/// - A session elsewhere (above other values) opens at the stack's height and drops its
///   slots when it closes.
/// - The state has one `req` userdata, made once and kept in the registry; each request
///   gives it a new generation (``RequestUserdata/renumber(_:at:generation:source:)``), and a
///   view whose generation is not ``generation`` reads nothing.
/// - Setting the request a session already has is a no-op: the generation changes only
///   when what rules read changes.
///
/// The request's fields are read by C callbacks (``RequestUserdata``) that find this
/// frame through the state, so the compiler cannot prove their accesses exclusive.
/// Unchecked is sound: a state is used by one thread at a time (an engine is lent to one
/// borrower), and each access is a plain read or write, or a `sourceNames` or
/// `parsedQuery` mutation that calls out to nothing that touches this frame.
final class RequestFrame {
    /// The slots a session holds.
    static let height: Int32 = 4

    /// The thread the frame's slots are on: the state's evaluation thread, set anew each
    /// time the state makes one (whose stack starts empty).
    var handle: OpaquePointer

    /// The request `req` stands for while a session is open; `nil` between sessions.
    @exclusivity(unchecked) private(set) var request: RuleRequest?
    /// ``request``'s identity (``RuleRequest/identity``), compared without touching the
    /// request's reference count. Sound because ``request`` keeps that request alive, so
    /// no other can have its identity while it is set.
    private var requestIdentity: ObjectIdentifier?
    /// The generation of ``request``: a `req` userdata or view of another is stale.
    @exclusivity(unchecked) private(set) var generation = 0
    /// The limits on values built for `req` and `ctx`.
    @exclusivity(unchecked) var valueLimits = RuleValueLimits()
    /// The sources whose names the `req` userdata keeps as Lua strings, in the user values
    /// from ``RequestUserdata/firstSourceSlot`` on, across requests.
    @exclusivity(unchecked) var sourceNames: [RequestSource] = []
    /// The source `req.source` was last built for (what ``RequestUserdata`` keeps next).
    @exclusivity(unchecked) var builtSource: RequestSource?
    /// The request's query, parsed when a rule first reads a name of it: each name's
    /// first value. Reading a name of an 8,000-item query must not parse it again.
    @exclusivity(unchecked) private var parsedQuery: [String: String]?

    /// Registry reference of the array of declared functions, once the bundle is sealed.
    var declaredFunctions: Int32 = LUA_NOREF
    /// Registry reference to the state's one `req` userdata, once made.
    private var requestUserdata: Int32 = LUA_NOREF
    /// The context snapshot last converted for `ctx`, and its table's registry reference.
    private var convertedContext: (snapshot: ContextSnapshot, reference: Int32)?

    /// Whether slots 1...4 of the stack hold a resident frame.
    private var isResident = false
    /// The snapshot whose table is in the resident frame's `ctx` slot.
    private var residentContext: ContextSnapshot?

    // The open session.
    private var isOpen = false
    private var base: Int32 = 0
    private var context: ContextSnapshot?
    /// How many of the session's slots hold their value (they fill in order).
    private var filledSlots: Int32 = 0
    /// The generation the `req` in its slot was renumbered to; -1 when none.
    private var placedGeneration = -1
    /// The snapshot whose table is in the `ctx` slot.
    private var placedContext: ContextSnapshot?

    /// A frame for the state `handle`, which owns it and outlives it.
    init(handle: OpaquePointer) {
        self.handle = handle
    }

    /// Opens a session: rules called through it read `ctx` from `context`, and `req` from
    /// the request ``setRequest(_:)`` sets. Sessions do not nest.
    func open(context: ContextSnapshot) {
        precondition(!isOpen, "rule sessions of one engine do not nest")
        let height = lua_gettop(handle)
        if height == 0 { isResident = false }
        if isResident && height == Self.height {
            (base, filledSlots, placedContext) = (0, Self.height, residentContext)
        } else {
            (base, filledSlots, placedContext) = (height, 0, nil)
        }
        placedGeneration = -1
        self.context = context
        isOpen = true
    }

    /// Closes the session: its slots are dropped, unless resident, and no `req` reads the
    /// request any more.
    func close() {
        lua_settop(handle, base == 0 && isResident ? Self.height : base)
        request = nil
        requestIdentity = nil
        generation += 1
        parsedQuery = nil
        context = nil
        isOpen = false
    }

    /// Makes `request` what rules read as `req` from now on. Setting the request `req`
    /// stands for already changes nothing; another makes every `req` from before read
    /// nothing (a rule cannot keep one anyway).
    @inline(__always)
    func setRequest(_ request: RuleRequest) {
        let identity = request.identity
        if identity == requestIdentity { return }
        self.request = request
        requestIdentity = identity
        generation += 1
        parsedQuery = nil
    }

    /// Leaves `req`, `ctx` and the call frame in the session's slots.
    /// - Returns: The slot of the message handler; the declared functions are above it,
    ///   `req` and `ctx` the two below.
    /// - Throws: `LuaError` when the stack cannot grow or `ctx` does not convert.
    @inline(__always)
    func arrange() throws(LuaError) -> Int32 {
        if placedGeneration != generation || filledSlots < Self.height || placedContext !== context {
            try place()
        }
        return base + 3
    }

    /// Fills the slots that are empty or out of date, in order.
    private func place() throws(LuaError) {
        precondition(isOpen && request != nil, "setRequest(_:) comes before evaluate(declared:)")
        if placedGeneration != generation {
            try LuaState.reserveStack(4, in: handle, chunkName: "req", activity: "pass req to Lua")
            if filledSlots == 0 {
                try pushRequestUserdata()
                filledSlots = 1
            }
            // The next request's source, when `req` keeps it as a string, stays cached.
            var source: Int32 = 0
            if !sourceNames.isEmpty, let request {
                source = RequestUserdata.keptSourceSlot(for: request.source, among: sourceNames)
            }
            RequestUserdata.renumber(handle, at: base + 1, generation: generation, source: source)
            placedGeneration = generation
        }
        if placedContext !== context, let context {
            let top = lua_gettop(handle)
            do throws(LuaError) {
                try pushContext(context)
            } catch {
                lua_settop(handle, top)
                throw error
            }
            if filledSlots >= 2 { jl_replace(handle, base + 2) } else { filledSlots = 2 }
            placedContext = context
            if base == 0 { residentContext = context }
        }
        if filledSlots < Self.height {
            try LuaState.reserveStack(2, in: handle, chunkName: "rule", activity: "call a rule")
            jl_pushcfunction(handle, HostFunctions.messageHandler)  // a light C function: cannot raise
            lua_rawgeti(handle, jl_registryindex(), lua_Integer(declaredFunctions))  // an existing entry
            filledSlots = Self.height
            if base == 0 { isResident = true }
        }
    }

    /// Pushes the state's one `req` userdata, made the first time.
    private func pushRequestUserdata() throws(LuaError) {
        if requestUserdata == LUA_NOREF {
            jl_pushcfunction(handle, RequestUserdata.push)
            lua_pushinteger(handle, lua_Integer(generation))
            try ProtectedCall.call(in: handle, arguments: 1, results: 1, chunkName: "req", activity: "pass req to Lua")
            requestUserdata = try LuaState.reference(in: handle, chunkName: "req")
        }
        lua_rawgeti(handle, jl_registryindex(), lua_Integer(requestUserdata))  // an existing entry
    }

    /// Pushes `ctx`: the table converted for `context` before, or a new conversion.
    private func pushContext(_ context: ContextSnapshot) throws(LuaError) {
        try LuaState.reserveStack(4, in: handle, chunkName: "ctx", activity: "pass ctx to Lua")
        if let converted = convertedContext, converted.snapshot === context {
            lua_rawgeti(handle, jl_registryindex(), lua_Integer(converted.reference))  // an existing entry
            return
        }
        try RuleValueWriter.push(
            .table(context.values), readOnly: true, into: handle, limits: valueLimits, name: "ctx", chunkName: "ctx")
        lua_pushvalue(handle, -1)
        let reference = try LuaState.reference(in: handle, chunkName: "ctx")
        if let old = convertedContext { luaL_unref(handle, jl_registryindex(), old.reference) }
        convertedContext = (context, reference)
    }

    /// Each name's first value in the request's query, parsed once per request; parsing is
    /// charged to the budget (a byte an instruction). `nil` when the budget cannot pay.
    func queryValues(of request: RuleRequest) -> [String: String]? {
        if let parsedQuery { return parsedQuery }
        guard SandboxContext.charge(handle, request.queryLength) else { return nil }
        let values = request.firstQueryValues
        parsedQuery = values
        return values
    }
}
