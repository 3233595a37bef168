import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The latest modification time any pointer of a channel was given, kept beside it in
/// `channels/.NAME.served` (a name no channel's pointer can have).
///
/// Static hosts derive the pointer's validator from its modification time: nginx's ETag is
/// `"<mtime>-<size>"` in hex, the mtime in whole seconds. A device sends back the ETag of
/// the pointer it holds, so a new pointer with the second and size of one the channel
/// served before would be answered `304 Not Modified` and never seen. `bundle publish`
/// dates each pointer strictly after the mark and records the mark before the pointer
/// appears; every pointer the channel served is then dated at or before the mark, and no
/// new one shares its second with any of them, whatever its size and whatever became of
/// the pointer file meanwhile (deleted, replaced with `--force`, restored from a backup).
struct ChannelServedMark {
    /// Why the mark cannot be used: publish refuses rather than risk repeating an ETag.
    struct Refusal: Error, CustomStringConvertible {
        /// What is wrong with the mark and what to do.
        let description: String
    }

    /// The latest time a mark or a pointer may hold, 9999-12-31T23:59:59Z: far past any
    /// real publish, and within what every file system stores.
    static let maximumTime = 253_402_300_799

    /// `DIR/channels/.NAME.served`.
    let path: String
    /// The time recorded, in whole seconds since 1970; `nil` before the channel's first
    /// publish that keeps a mark.
    let latest: Int?

    /// Reads the mark of `channel` in the publish folder `directory`: a regular file of
    /// 1 to 12 decimal digits and a newline, read no further than 32 bytes.
    /// - Throws: ``Refusal`` naming the file, when it is not a regular file, cannot be
    ///   read, or does not hold a time up to ``maximumTime``.
    init(directory: String, channel: String) throws(Refusal) {
        path = directory + "/channels/." + channel + ".served"
        var status = stat()
        guard lstat(path, &status) == 0 else {
            guard errno == ENOENT else {
                throw Self.refusal(path, "cannot be read: \(String(cString: strerror(errno)))")
            }
            latest = nil
            return
        }
        // Non-blocking and not through a link: a FIFO or a link put here cannot hold or redirect publish.
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_NOCTTY)
        guard fd >= 0 else { throw Self.refusal(path, "cannot be read: \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        guard fstat(fd, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
            throw Self.refusal(path, "is not a regular file")
        }
        var buffer = [UInt8](repeating: 0, count: 32)
        let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress!, $0.count) }
        guard count >= 0 else { throw Self.refusal(path, "cannot be read: \(String(cString: strerror(errno)))") }
        var digits = buffer[..<count]
        if digits.last == UInt8(ascii: "\n") { digits = digits.dropLast() }
        guard (1...12).contains(digits.count), digits.allSatisfy({ (0x30...0x39).contains($0) }),
            let time = Int(String(decoding: digits, as: UTF8.self)), time <= Self.maximumTime
        else {
            throw Self.refusal(path, "does not hold a time in whole seconds since 1970, up to \(Self.maximumTime)")
        }
        latest = time
    }

    /// The modification time for a pointer that replaces the file at `pointerPath` (if
    /// any): the first second after both the mark and that file's time, or `now` when that
    /// is later.
    /// - Throws: ``Refusal`` when that would be past ``maximumTime``.
    func nextTime(replacing pointerPath: String, now: Date = Date()) throws(Refusal) -> Int {
        var time = Int(now.timeIntervalSince1970.rounded(.down))
        if let latest { time = max(time, latest + 1) }
        // stat, not lstat: a host serving a linked pointer dates it by what the link names.
        var status = stat()
        if stat(pointerPath, &status) == 0 {
            #if canImport(Darwin)
                time = max(time, Int(status.st_mtimespec.tv_sec) + 1)
            #else
                time = max(time, Int(status.st_mtim.tv_sec) + 1)
            #endif
        }
        guard time <= Self.maximumTime else {
            throw Refusal(
                description: "\(pointerPath) (or its mark \(path)) is dated so late that no second up to "
                    + "\(Self.maximumTime) (9999-12-31T23:59:59Z) follows it for the new pointer")
        }
        return time
    }

    /// Records `time` as the latest, atomically; before the pointer dated `time` appears,
    /// so a pointer is never served with a time later than the mark.
    /// - Throws: ``AtomicFileError`` when the mark cannot be written; it keeps what it had.
    func record(_ time: Int) throws(AtomicFileError) {
        try AtomicFile.write(Array("\(time)\n".utf8), to: path)
    }

    private static func refusal(_ path: String, _ problem: String) -> Refusal {
        Refusal(
            description: "\(path) \(problem); it records the latest modification time a pointer of the channel "
                + "was given, so that no new pointer repeats a served one's ETag (nginx's \"<mtime>-<size>\"): "
                + "write in it, in seconds since 1970, the latest modification time a pointer of the channel was "
                + "served with, or any later one, and publish again")
    }
}
