internal import CLua

internal import Foundation  // free, realloc, memcmp, strcmp, strstr

/// The heap accounting of one Lua state, handed to Lua as its allocator's `ud`.
///
/// Lua routes every allocation, resize and free through ``allocator``, so `inUse`
/// is exact and the cap cannot be bypassed from Lua code.
struct MemoryBudget {
    /// The most bytes the state may hold at once.
    let limit: Int

    /// The bytes the state holds now.
    private(set) var inUse = 0

    /// The state's context, once it exists: while an evaluation runs, what it allocates
    /// anew is charged to its budget (one instruction per byte), so work the VM does in one
    /// instruction — `s .. s`, a table constructor — is paid for by the bytes it makes (see
    /// ``isCharged(_:_:_:)`` for what is not).
    var context: UnsafeMutablePointer<SandboxContext>?

    /// What the allocator sees of the evaluation thread (see ``ThreadWatch``).
    var watch = ThreadWatch()

    /// Lua's string table (`global_State.strt.hash`), found while the state is made and
    /// followed through its resizes, and its size. It is left out of the cap: it grows with
    /// the short strings earlier evaluations held at once and shrinks only at later
    /// collections, so counting it would let a rule that fills memory to the cap learn how
    /// many strings other decisions made. It holds a pointer per string at most twice over,
    /// and the strings themselves count.
    private var stringTable: UnsafeMutableRawPointer?
    private(set) var stringTableBytes = 0
    /// Whether the string table was looked for: the first vector of
    /// ``initialStringTableBytes`` a new state makes.
    private var stringTableSought = false

    /// `MINSTRTABSIZE` (128 in every Lua 5.4) pointers: the string table `lua_newstate` makes.
    private static let initialStringTableBytes = 128 * MemoryLayout<UnsafeRawPointer>.size

    /// Set while the host sizes a table it fills with string keys (``RuleValueWriter``):
    /// its hash part is made once, and Lua hashes strings with a seed of its own, so no
    /// chain a rule chose: ``maximumHashNodes`` does not apply to it.
    var hostSizesTable = false

    /// The budget of `state`, when its allocator is ``allocator`` (a state the tests make
    /// without the sandbox may have another).
    static func of(_ state: OpaquePointer?) -> UnsafeMutablePointer<MemoryBudget>? {
        var userData: UnsafeMutableRawPointer?
        guard let function = lua_getallocf(state, &userData),
            unsafeBitCast(function, to: UnsafeRawPointer.self) == unsafeBitCast(allocator, to: UnsafeRawPointer.self)
        else { return nil }
        return userData?.assumingMemoryBound(to: MemoryBudget.self)
    }

    /// Runs `body` with the heap's growth uncharged, for what only the first evaluation to
    /// ask would pay for — what a rule pays must not depend on what ran before: an array of
    /// ordered keys kept beyond the evaluation (a read-only table's, ``OrderedIteration``),
    /// a field of `req` kept across requests, a node of `req`'s fields table (which a
    /// table grows, or not, by what earlier requests left in it) (``RequestUserdata``). The
    /// memory cap still holds. `body` may raise (memory; the evaluation then ends with its
    /// metering off, as a memory error ends it anyway); it must hold no Swift reference.
    static func unmetered(_ state: OpaquePointer?, _ body: () -> Void) {
        let context = of(state)?.pointee.context
        let metering = context?.pointee.metering ?? false
        context?.pointee.metering = false
        body()
        context?.pointee.metering = metering
    }

    /// The last growth refused for the cap, to tell Lua's retry after its emergency
    /// collection: refused again, memory has run out for the evaluation.
    private var refused: (block: UnsafeMutableRawPointer?, oldSize: Int, newSize: Int)?

    /// Creates a budget that lets a state hold at most `limit` bytes.
    init(limit: Int) {
        self.limit = limit
    }

    /// A `lua_Alloc` that refuses to grow the heap past the budget's limit.
    ///
    /// Refusing is returning `NULL`: Lua then runs an emergency collection, retries,
    /// and finally raises "not enough memory" (`LUA_ERRMEM`) in the running chunk.
    static let allocator: lua_Alloc = { userData, block, oldSize, newSize in
        let budget = userData.unsafelyUnwrapped.assumingMemoryBound(to: MemoryBudget.self)
        // Without a block, `oldSize` names the kind of object being created, not a size.
        let previous = block == nil ? 0 : oldSize
        if newSize == 0 {
            if block != nil, block == budget.pointee.stringTable {
                budget.pointee.stringTable = nil
                budget.pointee.stringTableBytes = 0
            }
            if block != nil {
                let moved = budget.pointee.watch.freed(block, size: previous)
                // A stack that moved is Lua's own bookkeeping, not the rule's work: when it
                // grows depends on where the count hook ran (which needs room on the stack),
                // so charging it would make a rule's count depend on how fast it ran.
                if moved > 0, let context = budget.pointee.context, context.pointee.metering {
                    context.pointee.instructionsUsed -= min(moved, context.pointee.instructionsUsed)
                }
            }
            free(block)
            budget.pointee.inUse -= previous
            return nil
        }
        if newSize > previous {
            let growth = newSize - previous
            if let context = budget.pointee.context, context.pointee.metering {
                guard !context.pointee.memoryExhausted else { return nil }
                if block == nil && oldSize == 0 && !budget.pointee.hostSizesTable && isOversizedHashPart(newSize) {
                    // Refused for good: the evaluation ends, as when memory runs out.
                    context.pointee.hashPartRefused = true
                    context.pointee.memoryExhausted = true
                    return nil
                }
                if isCharged(block, oldSize, newSize) {
                    context.pointee.instructionsUsed &+= growth
                    // A new vector may be a stack moving, whose charge is given back when
                    // the old one is freed: the count hook trips the budget within an
                    // interval instead, if it stays spent.
                    let vector = block == nil && oldSize == 0
                    if !vector, context.pointee.instructionsUsed > context.pointee.evaluationLimit {
                        context.pointee.tripped = true
                    }
                }
                // A spent budget refuses all but small growth (Lua then raises, and the
                // budget's error is what the evaluation reports): the error's own message
                // still gets made, and the count hook stops the rule within an interval.
                if context.pointee.tripped, growth > 1024 { return nil }
            }
            // Written as a difference so a huge request cannot overflow the sum.
            let counted = budget.pointee.inUse - budget.pointee.stringTableBytes
            if block == nil || block != budget.pointee.stringTable, growth > budget.pointee.limit - counted {
                budget.pointee.refuse(block, oldSize: oldSize, newSize: newSize)
                return nil
            }
            budget.pointee.refused = nil
        }
        guard let resized = realloc(block, newSize) else { return nil }
        budget.pointee.watch.allocated(block, tag: block == nil ? oldSize : 0, size: newSize, result: resized)
        budget.pointee.followStringTable(block, tag: oldSize, size: newSize, result: resized)
        budget.pointee.inUse += newSize - previous
        return resized
    }

    /// Keeps ``stringTable`` on the string table: the first vector of its initial size a
    /// new state makes (after its stack and its registry's array, which are smaller), then
    /// wherever Lua resizes it to.
    @inline(__always)
    private mutating func followStringTable(
        _ block: UnsafeMutableRawPointer?, tag: Int, size: Int, result: UnsafeMutableRawPointer
    ) {
        if let block {
            if block == stringTable {
                stringTable = result
                stringTableBytes = size
            }
        } else if !stringTableSought, tag == 0, size == Self.initialStringTableBytes {
            stringTableSought = true
            stringTable = result
            stringTableBytes = size
        }
    }

    /// The most keys a table's hash part may hold while rules run: 1,024.
    ///
    /// Lua hashes an integer or a float key by its value modulo the part's size, so keys
    /// chosen to collide all land in one chain, and the insert that doubles the part rehashes
    /// every key into it — one VM instruction that neither the count hook nor the time
    /// backstop can interrupt: 240 ms for a part of 16,384 (8,192 keys), 17 ms for 4,096,
    /// 5 ms for 2,048, 0.3 ms for 1,024. A larger hash part is refused before it is made, so
    /// the rehash never starts; array parts (keys 1…n) have no chains and no such cap.
    static let maximumHashNodes = 1_024

    /// The size of a hash part's `Node` in Lua 5.4: a value (8 bytes and a tag), the key's
    /// tag, the chain's next offset and the key's value.
    private static let nodeBytes = 3 * MemoryLayout<UnsafeRawPointer>.size

    /// Whether a new vector of `size` bytes is a hash part of more than
    /// ``maximumHashNodes`` nodes: a power of two of nodes. (An array part of exactly three
    /// times a power of two values has that size too; past the cap, such an array is
    /// refused with it.)
    @inline(__always)
    private static func isOversizedHashPart(_ size: Int) -> Bool {
        guard size > maximumHashNodes * nodeBytes, size % nodeBytes == 0 else { return false }
        let nodes = size / nodeBytes
        return nodes & (nodes - 1) == 0
    }

    /// The most bytes a short string takes: `offsetof(TString, contents)` — a pointer, four
    /// one-byte fields, a 32-bit hash and a pointer-sized union — then at most
    /// `LUAI_MAXSHORTLEN` (40 in every Lua 5.4) bytes and a NUL. Longer strings are long ones.
    private static let shortStringBytes = 2 * MemoryLayout<UnsafeRawPointer>.size + 8 + 40 + 1

    /// Whether an allocation is charged to the budget: a new block (an object, a vector),
    /// unless it is a short string.
    ///
    /// What is charged must depend only on what the rule does, not on what earlier
    /// evaluations left, or a rule could read other decisions by where its budget runs out
    /// — whether one made a string (a user's token, a pattern built from it), or how many.
    /// So neither are short strings, which Lua interns (one is made only if no live or
    /// unswept copy exists), nor resizes, such as of the string table, which keeps the
    /// size earlier evaluations grew it to until a collection shrinks it. A resize costs no
    /// more than the instructions that filled what it grows, and library and helper
    /// functions charge what they build themselves. The call frames a thread keeps for
    /// reuse would make deep recursion cheaper after an earlier evaluation went as deep:
    /// every unit of work starts on a thread in one made state (``ThreadWatch``).
    /// A new block's `oldSize` is its object's type (`luaC_newobj` passes `novariant(tt)`).
    private static func isCharged(_ block: UnsafeMutableRawPointer?, _ oldSize: Int, _ newSize: Int) -> Bool {
        block == nil && (oldSize != Int(LUA_TSTRING) || newSize > shortStringBytes)
    }

    /// Records a growth refused for the cap. The same request refused twice in a row is
    /// Lua's retry after its emergency collection: memory has run out, and the evaluation
    /// may not go on (see ``SandboxContext/memoryExhausted``).
    private mutating func refuse(_ block: UnsafeMutableRawPointer?, oldSize: Int, newSize: Int) {
        defer { refused = (block, oldSize, newSize) }
        guard let last = refused, last.block == block, last.oldSize == oldSize, last.newSize == newSize,
            let context, context.pointee.metering
        else { return }
        context.pointee.memoryExhausted = true
    }
}
