/// Each route's index by its name, for a table read without compiling it (a
/// ``DeferredRoutes`` skim): the ASCII names' 64-bit FNV-1a hashes beside their indices,
/// sorted, and searched by halves — built at launch for a fraction of a dictionary's cost
/// (no seeded hash of every name, no table grown as it fills), and as fast to ask.
///
/// It answers as a dictionary filled in order, keeping the first, would: names are equal
/// as Swift's strings are, by canonical equivalence, and of routes that share a name the
/// first is found.
/// - Hashes only narrow the search: a name is found when the route's own name equals it,
///   so a collision costs a comparison more, never a wrong answer.
/// - Bytes are hashed only for ASCII names, whose bytes are their one form. A name with
///   other characters may equal another written otherwise (`ü` as one scalar or as `u` and a
///   combining mark; the Kelvin sign and `K`), so those are compared by `==`: an ASCII name
///   asked for is also compared with the table's non-ASCII names, and a non-ASCII name asked
///   for with every name.
struct RouteNameIndex: Sendable {
    private struct Entry: Sendable {
        var hash: UInt64
        var index: Int32
    }

    /// The ASCII names', by hash, then index.
    private let entries: [Entry]
    /// The indices of the names that are not all ASCII, in order.
    private let others: [Int32]

    /// The index of `names`.
    /// - Precondition: fewer than 2³¹ names.
    init(_ names: some Collection<String>) {
        var entries: [Entry] = []
        var others: [Int32] = []
        entries.reserveCapacity(names.count)
        for (index, name) in names.enumerated() {
            if let hash = Self.hash(name) {
                entries.append(Entry(hash: hash, index: Int32(index)))
            } else {
                others.append(Int32(index))
            }
        }
        entries.sort { ($0.hash, $0.index) < ($1.hash, $1.index) }
        self.entries = entries
        self.others = others
    }

    /// The first index whose name is `name`, or `nil`.
    /// - Parameters:
    ///   - name: A route name.
    ///   - nameAt: The name of the route at an index.
    func index(of name: String, nameAt: (Int) -> String) -> Int? {
        guard let hash = Self.hash(name) else {
            return (0..<entries.count + others.count).first { nameAt($0) == name }
        }
        // The first entry of this hash, by halves.
        var low = 0
        var high = entries.count
        while low < high {
            let middle = (low + high) / 2
            if entries[middle].hash < hash { low = middle + 1 } else { high = middle }
        }
        var found: Int?
        while low < entries.count, entries[low].hash == hash {
            let index = Int(entries[low].index)
            if nameAt(index) == name {
                found = index
                break
            }
            low += 1
        }
        // A name of other characters equal to this one comes first if it is earlier.
        for other in others {
            let index = Int(other)
            if let found, found < index { break }
            if nameAt(index) == name { return index }
        }
        return found
    }

    /// 64-bit FNV-1a of `name`'s UTF-8 bytes; `nil` when it is not all ASCII.
    private static func hash(_ name: String) -> UInt64? {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in name.utf8 {
            guard byte < 0x80 else { return nil }
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
        }
        return hash
    }
}
