import Crypto
import Junction
import JunctionShipping

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// `JunctionStoreProbe DIRECTORY SEED`: commits updates seq+1, seq+2, … to the store in
/// DIRECTORY through the real file system until it is killed, printing `op` before every
/// file operation and `committed N` after every commit, so a test can kill it with SIGKILL
/// at a chosen point and then check what a fresh store loads. The update for seq N is
/// ``ProbeUpdate/make(seq:)``, which the test rebuilds to compare byte for byte.
@main
struct StoreProbe {
    static func main() throws {
        let arguments = CommandLine.arguments
        guard arguments.count == 3, let seed = UInt64(arguments[2]) else {
            Announcer.say("usage: JunctionStoreProbe DIRECTORY SEED")
            exit(2)
        }
        let store = BundleStore(directory: arguments[1], fileSystem: AnnouncingFileSystem(seed: seed))
        let state = store.load()
        guard state.problems.isEmpty else {
            Announcer.say("problems: \(state.problems)")
            exit(1)
        }
        var seq = state.current?.identity.seq ?? 0
        while true {
            seq += 1
            try store.commit(ProbeUpdate.make(seq: seq))
            Announcer.say("committed \(seq)")
        }
    }
}
