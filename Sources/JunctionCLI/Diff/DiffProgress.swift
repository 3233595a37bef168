import Foundation

/// A progress line on standard error, redrawn in place at most ten times a second — only
/// when standard error is a terminal, so logs and CI output never see it.
struct DiffProgress {
    private let enabled: Bool
    private let started = ContinuousClock.now
    private var lastDrawn = ContinuousClock.now - .seconds(1)
    private var drawn = false

    init(enabled: Bool) {
        self.enabled = enabled && isatty(STDERR_FILENO) == 1
    }

    /// Redraws the line: requests decided, changed, their rate, and a bar when the file's
    /// size is known.
    mutating func update(requests: Int, changed: Int, read: Int, total: Int?) {
        guard enabled else { return }
        let now = ContinuousClock.now
        guard now - lastDrawn >= .milliseconds(100) else { return }
        lastDrawn = now
        let seconds = max(
            0.001, Double((now - started).components.attoseconds) / 1e18 + Double((now - started).components.seconds))
        var line = "\r\(requests) requests, \(changed) changed, \(Int(Double(requests) / seconds))/s"
        if let total, total > 0 {
            let fraction = min(1, Double(read) / Double(total))
            let filled = Int(fraction * 30)
            line +=
                " [" + String(repeating: "#", count: filled) + String(repeating: "-", count: 30 - filled) + "] "
                + "\(Int(fraction * 100))%"
        }
        FileHandle.standardError.write(Data((line + "\u{1B}[K").utf8))
        drawn = true
    }

    /// Clears the line before the report.
    mutating func finish() {
        guard drawn else { return }
        FileHandle.standardError.write(Data("\r\u{1B}[K".utf8))
        drawn = false
    }
}
