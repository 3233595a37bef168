/// Everything a state recording coverage keeps: the ``LineRecorder`` the line hook
/// writes (behind a stable pointer, which ``SandboxContext/lineRecorder`` holds), and,
/// for each chunk registered with it, the chunk's name and executable lines.
///
/// Owned by its ``LuaState`` and released after the state closes.
final class CoverageLog {
    /// The bitsets of lines that ran; index `i` is `chunks[i]`.
    let recorder: UnsafeMutablePointer<LineRecorder>
    /// Each registered chunk's name and executable lines, in registration order.
    private(set) var chunks: [(name: String, executableLines: Set<Int>)] = []

    init() {
        recorder = .allocate(capacity: 1)
        recorder.initialize(to: LineRecorder())
    }

    deinit {
        recorder.pointee.release()
        recorder.deinitialize(count: 1)
        recorder.deallocate()
    }

    /// Starts recording the lines of a chunk.
    /// - Parameters:
    ///   - name: The chunk's name, as its ``RuleSource`` gives it.
    ///   - source: The address of its source name in Lua (see ``LineRecorder``).
    ///   - executableLines: Its executable lines (see ``RuleCoverage``).
    func register(name: String, source: UnsafeRawPointer, executableLines: Set<Int>) {
        let index = recorder.pointee.register(source: source, highestLine: executableLines.max() ?? 0)
        assert(index == chunks.count, "the recorder and the log list the same chunks")
        chunks.append((name, executableLines))
    }

    /// What was recorded, by chunk name (chunks of the same name are merged).
    var coverage: RuleCoverage {
        var coverage = RuleCoverage()
        for (index, chunk) in chunks.enumerated() {
            coverage.merge(
                RuleCoverage(
                    executableLines: [chunk.name: chunk.executableLines],
                    executedLines: [chunk.name: recorder.pointee.recordedLines(ofChunk: index)]))
        }
        return coverage
    }

    /// Forgets the lines recorded so far.
    func clear() {
        recorder.pointee.clear()
    }
}
