/// A first-in, first-out queue in one circular array: appending at the back and removing
/// from the front move elements in and out without shifting the others, and a removed
/// element is released at once. It grows by doubling when full; its owner bounds it.
struct RingBuffer<Element> {
    private var slots: [Element?] = []
    /// The index of the oldest element in `slots`.
    private var head = 0
    /// How many elements it holds.
    private(set) var count = 0

    /// An empty buffer.
    init() {}

    /// A buffer of `elements`, oldest first.
    init(_ elements: some Sequence<Element>) {
        slots = elements.map(Optional.some)
        count = slots.count
    }

    /// Whether it holds nothing.
    var isEmpty: Bool { count == 0 }

    /// The oldest element.
    var first: Element? {
        _read { yield count == 0 ? nil : slots[head] }
    }

    /// Adds `element` at the back.
    mutating func append(_ element: consuming Element) {
        if count == slots.count { grow() }
        slots[wrapped(head + count)] = consume element
        count += 1
    }

    /// Removes and returns the oldest element.
    /// - Precondition: The buffer is not empty.
    @discardableResult
    mutating func removeFirst() -> Element {
        precondition(count > 0, "removeFirst() on an empty RingBuffer")
        let element = slots[head].take()!
        head = wrapped(head + 1)
        count -= 1
        if count == 0 { head = 0 }
        return element
    }

    /// Removes every element, keeping the storage.
    mutating func removeAll() {
        while count > 0 { removeFirst() }
    }

    /// The elements, oldest first.
    var elements: [Element] {
        (0..<count).map { slots[wrapped(head + $0)]! }
    }

    /// Twice the room (at least 16), the elements moved to its front in order.
    private mutating func grow() {
        let capacity = max(16, slots.count * 2)
        var larger: [Element?] = []
        larger.reserveCapacity(capacity)
        for offset in 0..<count { larger.append(slots[wrapped(head + offset)].take()) }
        larger.append(contentsOf: repeatElement(nil, count: capacity - count))
        slots = larger
        head = 0
    }

    /// `index` brought back into `slots`: it is less than twice their count, so one
    /// subtraction does what a division did.
    private func wrapped(_ index: Int) -> Int {
        index >= slots.count ? index - slots.count : index
    }
}
