internal import CLua

extension LuaState {
    /// Makes the thread the next unit of work runs on when the one in use is no longer as
    /// it was made (see ``ThreadWatch``). Call it only between units, when nothing of the
    /// thread's stack is in use but the request frame's slots, which the new thread lacks.
    /// - Throws: ``LuaError/Code/memory`` when the new thread does not fit in the memory
    ///   limit; the thread in use stays, and the next call tries again.
    @inline(__always)
    func renewEvaluationThreadIfChanged() throws(LuaError) {
        if !budget.pointee.watch.isPristine { try renewEvaluationThread() }
    }

    /// Makes a new evaluation thread, has it reach ``ThreadWatch/reachedDepth`` once, and
    /// works on it from now on. The old one, if any, is left to the collector.
    ///
    /// The collector is stopped meanwhile: a step then could shrink the thread while it is
    /// being made, and free blocks the watch would count.
    /// - Throws: ``LuaError/Code/memory`` when the new thread does not fit in the memory limit.
    func renewEvaluationThread() throws(LuaError) {
        if evaluationThread == LUA_NOREF {
            // Reserve the registry slot with any value, so that storing a thread in it later
            // overwrites an existing entry, which allocates nothing.
            lua_pushboolean(main, 1)
            evaluationThread = try reference(in: main)
        }
        // Held from the first thread on (``holdCollector()``); stopped here before that.
        let running = !collector.isHeld
        if running { _ = jl_gc(main, LUA_GCSTOP, 0) }
        defer { if running { _ = jl_gc(main, LUA_GCRESTART, 0) } }
        jl_pushcfunction(main, HostFunctions.makeEvaluationThread)  // a light C function: cannot raise
        lua_pushinteger(main, lua_Integer(evaluationThread))
        do {
            try ProtectedCall.call(
                in: main, arguments: 1, results: 0, chunkName: Self.setupChunkName,
                activity: "make a thread for evaluations")
        } catch {
            budget.pointee.watch.abandonCreating()
            throw error
        }
        // The rule's call, and the host's call into `reach` below it.
        budget.pointee.watch.endCreating(expectedFrames: ThreadWatch.reachedDepth + 1)
        lua_rawgeti(main, jl_registryindex(), lua_Integer(evaluationThread))  // an existing entry
        let thread = lua_tothread(main, -1).unsafelyUnwrapped
        jl_pop(main, 1)
        handle = thread
        frame.handle = thread
    }

    /// Gives back what the main thread grew while the bundle loaded — a call frame per depth
    /// its code reached, and its stack — by full collections in incremental mode (the
    /// generational collector's never shrink a thread) until one frees nothing more.
    ///
    /// Otherwise a collection long after, in the incremental mode the generational collector
    /// falls back to after a collection that freed little, would give them back then, and
    /// how much memory a rule could still take would depend on whether earlier decisions
    /// had made garbage enough for that. Run once, after loading and before the first
    /// evaluation thread; after it, the main thread is at a size no collection changes.
    func settleMainThread() {
        _ = jl_gc_incremental(main)
        var held = memoryInUse
        for _ in 0..<40 {
            _ = jl_gc(main, LUA_GCCOLLECT, 0)
            let now = memoryInUse
            if now >= held { break }
            held = now
        }
        _ = jl_gc_generational(main)
    }

    /// Stops the collector from running inside units of work: from now on it runs between
    /// them (``collectBetweenUnits()``), and inside one only when memory runs out.
    ///
    /// A step inside a unit would make what a rule is charged depend on when earlier units
    /// left the collector's debt: in incremental mode (which the generational collector falls
    /// back to after a collection that freed little) a step shrinks the running thread's stack
    /// and frees its spare call frames, and the rule pays to grow them again. Lua's emergency
    /// collection, when an allocation is refused, still runs, and shrinks nothing.
    func holdCollector() {
        _ = jl_gc(main, LUA_GCSTOP, 0)
        collector.isHeld = true
        collector.collectedAt = budget.pointee.inUse
    }

    /// Runs the collector, when it is held, once the heap grew enough since it last ran — as
    /// the generational collector's own pace would (a young collection at a fifth more, at
    /// least 64 KiB) — or fully, when an evaluation ran out of memory.
    func collectBetweenUnits() {
        guard collector.isHeld else { return }
        // The allocator's count of the heap: what Lua's own count reads, without two calls
        // into Lua after every decision.
        if collector.fullCollectionDue {
            collector.fullCollectionDue = false
            _ = jl_gc(main, LUA_GCCOLLECT, 0)
        } else if budget.pointee.inUse - collector.collectedAt > max(64 << 10, collector.collectedAt / 5) {
            _ = jl_gc(main, LUA_GCSTEP, 0)
        } else {
            return
        }
        collector.collectedAt = budget.pointee.inUse
    }

    private func reference(in state: OpaquePointer) throws(LuaError) -> Int32 {
        try Self.reference(in: state, chunkName: Self.setupChunkName)
    }
}

extension HostFunctions {
    /// Makes a thread, runs the prelude's `reach` on it to ``ThreadWatch/reachedDepth``,
    /// and keeps it in the registry slot given as argument 1 (an existing entry, so storing
    /// allocates nothing). Runs on the main thread, in a protected call.
    static let makeEvaluationThread: lua_CFunction = { state in
        let slot = lua_tointegerx(state, 1, nil)
        let context = SandboxContext.of(state)
        // A sandbox state's: only the sandbox makes evaluation threads, and its allocator is the budget's.
        let budget = MemoryBudget.of(state).unsafelyUnwrapped
        // Only now: the call into this function may have grown the main thread's stack.
        budget.pointee.watch.beginCreating()
        let thread = lua_newthread(state).unsafelyUnwrapped  // raises when memory runs out
        budget.pointee.watch.phase = .reaching
        lua_rawgeti(thread, jl_registryindex(), lua_Integer(context.pointee.reach))  // an existing entry
        lua_pushinteger(thread, lua_Integer(ThreadWatch.reachedDepth))
        guard jl_pcall(thread, 1, 0, 0) == LUA_OK else {
            // The thread's error is its own; the caller learns that memory ran out.
            lua_settop(thread, 0)
            lua_pushstring(state, "not enough memory for a new evaluation thread")
            return lua_error(state)
        }
        lua_rawseti(state, jl_registryindex(), slot)  // pops the thread
        return 0
    }
}
