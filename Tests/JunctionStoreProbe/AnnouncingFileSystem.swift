import Junction
import JunctionShipping
import JunctionCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The real file system, announcing each operation with an `op` line and then pausing a
/// seeded 0–300 µs, so kills land spread across the operations rather than bunched in the
/// slowest one.
final class AnnouncingFileSystem: StoreFileSystem {
    private let base = POSIXFileSystem()
    private let state: Locked<UInt64>

    init(seed: UInt64) {
        state = Locked(seed)
    }

    private func announce() {
        Announcer.say("op")
        let pause = state.withLock { state in
            // SplitMix64, as the tests use.
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return (z ^ (z >> 31)) % 300
        }
        usleep(useconds_t(pause))
    }

    func read(_ path: String, maximumBytes: Int) throws(StoreError) -> [UInt8] {
        announce()
        return try base.read(path, maximumBytes: maximumBytes)
    }

    func createFile(_ path: String, contents: [UInt8]) throws(StoreError) {
        announce()
        try base.createFile(path, contents: contents)
    }

    func rename(_ source: String, to destination: String) throws(StoreError) {
        announce()
        try base.rename(source, to: destination)
    }

    func synchronizeDirectory(_ path: String) throws(StoreError) {
        announce()
        try base.synchronizeDirectory(path)
    }

    func remove(_ path: String) throws(StoreError) {
        announce()
        try base.remove(path)
    }

    func makeDirectory(_ path: String) throws(StoreError) -> Bool {
        announce()
        return try base.makeDirectory(path)
    }

    func list(_ path: String, maximumEntries: Int) throws(StoreError) -> [String] {
        announce()
        return try base.list(path, maximumEntries: maximumEntries)
    }
}
