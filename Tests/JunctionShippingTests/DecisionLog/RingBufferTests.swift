import Testing

@testable import JunctionShipping

/// The decision log's queue: first in, first out across its wrap-around and its growth,
/// and an element removed is released at once (a dropped decision frees its strings).
@Suite struct RingBufferTests {
    /// Appends and removals interleaved, in every phase of the circle: the order is the
    /// order of appending, whatever the head's position when the buffer grows.
    @Test(arguments: [
        (appends: 5, removalsBetween: 0),
        (appends: 16, removalsBetween: 0),
        (appends: 17, removalsBetween: 0),
        (appends: 40, removalsBetween: 1),
        (appends: 100, removalsBetween: 3),
    ])
    func keepsTheOrderOfAppending(appends: Int, removalsBetween: Int) {
        var ring = RingBuffer<Int>()
        var expected: [Int] = []
        var removed: [Int] = []
        for value in 0..<appends {
            ring.append(value)
            expected.append(value)
            // Every third append, take some from the front: the head moves, then the buffer wraps.
            if value % 3 == 2 {
                for _ in 0..<removalsBetween where !ring.isEmpty {
                    removed.append(ring.removeFirst())
                }
            }
            #expect(ring.count == expected.count - removed.count)
            #expect(ring.first == expected.dropFirst(removed.count).first)
        }
        #expect(removed == Array(expected.prefix(removed.count)))
        #expect(ring.elements == Array(expected.dropFirst(removed.count)))
        ring.removeAll()
        #expect(ring.isEmpty && ring.first == nil && ring.elements.isEmpty)
    }

    @Test func startsFromASequence() {
        var ring = RingBuffer(["a", "b", "c"])
        ring.append("d")
        #expect(ring.removeFirst() == "a")
        #expect(ring.elements == ["b", "c", "d"])
    }

    /// Removed, an element is no longer referenced by the buffer's storage.
    @Test func releasesWhatItRemoves() {
        final class Token {}
        var ring = RingBuffer<Token>()
        weak var first: Token?
        do {
            let token = Token()
            first = token
            ring.append(token)
        }
        ring.append(Token())
        #expect(first != nil)
        ring.removeFirst()
        #expect(first == nil)
        #expect(ring.count == 1)
    }
}
