/// Each route's index by its name, for a table read without compiling it (a
/// ``DeferredRoutes`` skim): the names' 64-bit FNV-1a hashes beside their indices, sorted,
/// and searched by halves — built at launch for a fraction of a dictionary's cost (no
/// seeded hash of every name, no table grown as it fills), and as fast to ask.
///
/// Hashes only narrow the search: a name is found when the route's own name equals it, so a
/// collision costs a comparison more, never a wrong answer. Of routes that share a name, the
/// first is found, as a dictionary filled in order keeping the first would say.
struct RouteNameIndex: Sendable {
    private struct Entry: Sendable {
        var hash: UInt64
        var index: Int32
    }

    /// By hash, then index.
    private let entries: [Entry]

    /// The index of `names`.
    /// - Precondition: fewer than 2³¹ names.
    init(_ names: some Collection<String>) {
        var entries: [Entry] = []
        entries.reserveCapacity(names.count)
        for (index, name) in names.enumerated() { entries.append(Entry(hash: Self.hash(name), index: Int32(index))) }
        entries.sort { ($0.hash, $0.index) < ($1.hash, $1.index) }
        self.entries = entries
    }

    /// The first index whose name is `name`, or `nil`.
    /// - Parameters:
    ///   - name: A route name.
    ///   - nameAt: The name of the route at an index.
    func index(of name: String, nameAt: (Int) -> String) -> Int? {
        let hash = Self.hash(name)
        // The first entry of this hash, by halves.
        var low = 0
        var high = entries.count
        while low < high {
            let middle = (low + high) / 2
            if entries[middle].hash < hash { low = middle + 1 } else { high = middle }
        }
        while low < entries.count, entries[low].hash == hash {
            let index = Int(entries[low].index)
            if nameAt(index) == name { return index }
            low += 1
        }
        return nil
    }

    /// 64-bit FNV-1a of `name`'s UTF-8 bytes.
    private static func hash(_ name: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in name.utf8 { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
        return hash
    }
}
