/// What the allocator sees of the evaluation thread (``LuaState/renewEvaluationThread()``):
/// whether the thread is still exactly as it was made.
///
/// Lua keeps what a thread grew — its stack, and a `CallInfo` block per call depth it
/// reached — until a collection or an error shrinks them, and a new `CallInfo` is a block
/// the budget charges. So what a call costs, and how much memory a rule can still take,
/// would depend on how deep earlier evaluations went. Every unit of work (a decision, or an
/// evaluation outside one) starts on a thread in one made state instead: a new thread that
/// has reached ``reachedDepth`` once, so it owns that many call frames and the stack they
/// needed. The watch tells when a thread left that state — its stack block was resized or
/// freed, or a block of a `CallInfo`'s size was made or freed — and the next unit starts on
/// a new thread. A block of that size that is no `CallInfo` (a four-slot array, a short
/// string) only renews a thread that was still good: a cost, never a leak.
///
/// The size of a `CallInfo` is not in Lua's public headers; it is learned while a thread is
/// made, from the blocks Lua allocates for the frames it reaches (nothing else is allocated
/// then). A Lua whose making looks otherwise leaves it unknown, and every unit gets a new
/// thread.
struct ThreadWatch {
    /// How deep each new thread calls once, so it owns the frames of that depth and the
    /// stack they needed: a decision's calls (host → rule → helpers → a library function)
    /// rarely go deeper, and deeper ones renew the thread.
    static let reachedDepth = 32

    enum Phase {
        /// Watching the thread in use.
        case watching
        /// Inside `lua_newthread`: the one vector it allocates is the new thread's stack.
        case creating
        /// The new thread reaches ``reachedDepth``: its new vectors are its call frames.
        case reaching
    }

    var phase = Phase.watching
    /// The thread's stack block, followed through its moves while it is made.
    private(set) var stack: UnsafeMutableRawPointer?
    /// The size of a `CallInfo` block: 0 before a thread was made, -1 when it could not be
    /// told (then every unit renews the thread).
    private(set) var callInfoSize = 0
    /// While a thread is made: the sizes of the new vectors its frames took, and how many of
    /// each — a few sizes at most, so a short list.
    private var frameSizes: [(size: Int, count: Int)] = []
    /// The last new vector made, if nothing was allocated or freed since: the stack's new
    /// block when Lua then frees the old one (Lua 5.4.0–5.4.5 move a growing or shrinking
    /// stack into a new block).
    private var lastVector: (block: UnsafeMutableRawPointer, size: Int)?
    /// Set once the thread in use is no longer as it was made.
    var changed = true

    /// Whether the thread can be used again: it is as it was made, and a `CallInfo`'s
    /// size is known.
    var isPristine: Bool { !changed && callInfoSize > 0 }

    /// Starts watching for a new thread: `lua_newthread` comes next.
    mutating func beginCreating() {
        phase = .creating
        stack = nil
        frameSizes.removeAll(keepingCapacity: true)
        lastVector = nil
    }

    /// The new thread has reached its depth: `frames` frames were expected (its calls and
    /// the host's call into it), all of one size.
    mutating func endCreating(expectedFrames frames: Int) {
        phase = .watching
        let sizes = frameSizes.filter { $0.count > 0 }
        if sizes.count == 1, sizes[0].count == frames, callInfoSize == 0 || callInfoSize == sizes[0].size {
            callInfoSize = sizes[0].size
        } else {
            callInfoSize = -1
        }
        changed = callInfoSize <= 0 || stack == nil
    }

    /// Making a thread failed: the thread in use stays, and is renewed next time.
    mutating func abandonCreating() {
        phase = .watching
        stack = nil
        changed = true
    }

    /// A block of `size` bytes is being freed.
    /// - Returns: The size of the block the thread's stack just moved into, when this frees
    ///   the stack it moved from (Lua 5.4.0–5.4.5 grow and shrink a stack into a new block),
    ///   else 0: the allocator charged that block as a new vector, and gives the charge back.
    @inline(__always)
    mutating func freed(_ block: UnsafeMutableRawPointer?, size: Int) -> Int {
        defer { lastVector = nil }
        if block == stack {
            if let moved = lastVector {
                // The stack moved into the vector just made, which was no frame.
                stack = moved.block
                if phase == .watching {
                    changed = true
                    return moved.size
                }
                count(frameOf: moved.size, by: -1)
            } else {
                stack = nil
                changed = true
            }
        } else if size == callInfoSize {
            changed = true
        }
        return 0
    }

    /// `block` (nil for a new one, whose `tag` names its kind: 0 for a vector or a
    /// `CallInfo`) became `result`, of `size` bytes.
    @inline(__always)
    mutating func allocated(
        _ block: UnsafeMutableRawPointer?, tag: Int, size: Int, result: UnsafeMutableRawPointer
    ) {
        guard block == nil, tag == 0 else {
            lastVector = nil
            if let block, block == stack {
                stack = result
                if phase == .watching { changed = true }
            }
            return
        }
        lastVector = (result, size)
        switch phase {
        case .watching:
            if size == callInfoSize { changed = true }
        case .creating:
            if stack == nil { stack = result }
        case .reaching:
            count(frameOf: size, by: 1)
        }
    }

    private mutating func count(frameOf size: Int, by change: Int) {
        if let index = frameSizes.firstIndex(where: { $0.size == size }) {
            frameSizes[index].count += change
        } else {
            frameSizes.append((size, change))
        }
    }
}
