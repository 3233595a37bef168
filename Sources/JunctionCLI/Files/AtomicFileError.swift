import Foundation

/// A file ``AtomicFile`` could not write; nothing of it was left behind.
struct AtomicFileError: Error, CustomStringConvertible {
    /// The file that was to be written.
    let path: String
    /// The system's reason.
    let reason: String

    init(path: String, errno code: Int32) {
        self.path = path
        self.reason = String(cString: strerror(code))
    }

    /// `cannot write PATH: reason`.
    var description: String { "cannot write \(path): \(reason)" }
}
