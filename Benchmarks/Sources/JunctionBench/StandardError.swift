import Foundation

/// Progress and diagnostics, kept off standard output so `--json` prints only results.
enum StandardError {
    /// Writes one line to standard error.
    static func print(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }
}
