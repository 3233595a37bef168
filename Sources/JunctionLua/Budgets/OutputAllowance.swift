/// What rules may still hand the logger in one decision: a number of lines and of bytes
/// (``SandboxLimits/logLines``, ``SandboxLimits/logBytes``). Output past either is dropped
/// and counted, so a rule cannot flood the host's logs, and one line says what was lost.
struct OutputAllowance {
    private let lineLimit: Int
    private let byteLimit: Int
    private var linesLeft: Int
    private var bytesLeft: Int
    private var droppedLines = 0
    private var droppedBytes = 0

    /// The allowance of one decision under `limits`.
    init(limits: SandboxLimits) {
        lineLimit = limits.logLines
        byteLimit = limits.logBytes
        linesLeft = limits.logLines
        bytesLeft = limits.logBytes
    }

    /// What of `line` may be logged: all of it, its first bytes with a note of how many
    /// were cut when it is longer than the bytes left, or `nil` when nothing may be.
    mutating func admit(_ line: String) -> String? {
        let size = line.utf8.count
        guard linesLeft > 0, bytesLeft > 0 else {
            droppedLines += 1
            droppedBytes += size
            return nil
        }
        linesLeft -= 1
        guard size > bytesLeft else {
            bytesLeft -= size
            return line
        }
        let kept = String(decoding: line.utf8.prefix(bytesLeft), as: UTF8.self)
        droppedBytes += size - bytesLeft
        bytesLeft = 0
        return kept + " … (\(size - kept.utf8.count) more bytes dropped)"
    }

    /// The line that reports what was dropped, if anything was; the counts start again.
    mutating func takeDropReport() -> String? {
        guard droppedLines > 0 || droppedBytes > 0 else { return nil }
        defer { (droppedLines, droppedBytes) = (0, 0) }
        return "dropped \(droppedLines) lines and \(droppedBytes) bytes of rule output: one decision may log at most "
            + "\(lineLimit) lines and \(byteLimit) bytes (SandboxLimits.logLines, SandboxLimits.logBytes)"
    }
}
