internal import CLua

/// The lines of bundle chunks that ran, as one bitset per loaded chunk, in memory the
/// host owns; the line hook (``hook``) writes it, ``LuaState/coverage`` reads it.
///
/// A chunk is known by the address of its source name: Lua keeps one string per chunk
/// as every function's `source`, and `lua_getinfo` hands out that string's bytes, so the
/// address names the chunk for as long as the string lives (``LuaState`` keeps each
/// chunk's main function, and with it the string, for the state's lifetime). Chunks
/// that were not registered — the sandbox prelude, text a rule compiles with `load` —
/// have other addresses and are not recorded.
///
/// Plain values and raw memory only: the hook also charges the instruction budget, and
/// a budget error `longjmp`s out of it.
struct LineRecorder {
    /// One registered chunk: its source address and the bitset of its lines that ran.
    struct Chunk {
        var source: UnsafeRawPointer
        var words: UnsafeMutablePointer<UInt64>
        var wordCount: Int
    }

    private var chunks: UnsafeMutablePointer<Chunk>?
    private(set) var chunkCount = 0
    private var chunkCapacity = 0
    /// The source address of the last line event, and the chunk it is (-1: none).
    private var lastSource: UnsafeRawPointer?
    private var lastChunk = -1

    /// Registers a chunk whose lines are at most `highestLine`; returns its index.
    mutating func register(source: UnsafeRawPointer, highestLine: Int) -> Int {
        if chunkCount == chunkCapacity {
            let capacity = max(8, chunkCapacity * 2)
            let grown = UnsafeMutablePointer<Chunk>.allocate(capacity: capacity)
            if let chunks {
                grown.moveInitialize(from: chunks, count: chunkCount)
                chunks.deallocate()
            }
            chunks = grown
            chunkCapacity = capacity
        }
        let wordCount = highestLine / 64 + 1
        let words = UnsafeMutablePointer<UInt64>.allocate(capacity: wordCount)
        words.initialize(repeating: 0, count: wordCount)
        (chunks.unsafelyUnwrapped + chunkCount).initialize(
            to: Chunk(source: source, words: words, wordCount: wordCount))
        chunkCount += 1
        lastSource = nil
        lastChunk = -1
        return chunkCount - 1
    }

    /// Marks `line` of the chunk whose source name is at `source` as run; a chunk that
    /// was not registered, or a line past the chunk's highest, is ignored.
    @inline(__always)
    mutating func record(source: UnsafeRawPointer?, line: Int) {
        if source != lastSource {
            lastSource = source
            lastChunk = -1
            for index in 0..<chunkCount where chunks.unsafelyUnwrapped[index].source == source {
                lastChunk = index
                break
            }
        }
        guard lastChunk >= 0, line >= 0 else { return }
        let chunk = chunks.unsafelyUnwrapped[lastChunk]
        let word = line >> 6
        guard word < chunk.wordCount else { return }
        chunk.words[word] |= 1 << UInt64(line & 63)
    }

    /// The lines of chunk `index` that ran.
    func recordedLines(ofChunk index: Int) -> Set<Int> {
        precondition(index >= 0 && index < chunkCount, "no such chunk")
        let chunk = chunks.unsafelyUnwrapped[index]
        var lines = Set<Int>()
        for word in 0..<chunk.wordCount {
            var bits = chunk.words[word]
            while bits != 0 {
                lines.insert(word << 6 | bits.trailingZeroBitCount)
                bits &= bits - 1
            }
        }
        return lines
    }

    /// Forgets every line recorded; the chunks stay registered.
    mutating func clear() {
        for index in 0..<chunkCount {
            let chunk = chunks.unsafelyUnwrapped[index]
            chunk.words.update(repeating: 0, count: chunk.wordCount)
        }
    }

    /// Frees the bitsets and the chunk list.
    mutating func release() {
        for index in 0..<chunkCount {
            chunks.unsafelyUnwrapped[index].words.deallocate()
        }
        chunks?.deinitialize(count: chunkCount)
        chunks?.deallocate()
        chunks = nil
        chunkCount = 0
        chunkCapacity = 0
    }

    /// The hook installed instead of ``SandboxContext/countHook`` while lines are
    /// recorded: a count event charges the budget exactly as that hook does (and may
    /// raise); a line event records the line when a function of a registered chunk —
    /// not its main function, which runs once at load — is running.
    static let hook: lua_Hook = { state, event in
        let event = event.unsafelyUnwrapped
        if event.pointee.event == LUA_HOOKCOUNT {
            SandboxContext.chargeInterval(state)
            return
        }
        // "S" fills `source` and `linedefined` of the running function; it cannot raise.
        guard lua_getinfo(state, HostFunctions.cString("S"), event) != 0, event.pointee.linedefined > 0 else { return }
        SandboxContext.of(state).pointee.lineRecorder.unsafelyUnwrapped.pointee
            .record(source: UnsafeRawPointer(event.pointee.source), line: Int(event.pointee.currentline))
    }
}
