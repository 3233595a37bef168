/// Fields kept in one heap box, copied only when written while shared: a value type
/// holding one makes copies cost one reference count, however many fields it has.
///
/// `@unchecked Sendable` is sound: the box is written only through ``CopyOnWrite/write(_:)``,
/// which first makes it unique to the writer, so a shared box is never mutated.
final class CopyOnWriteBox<Fields: Sendable>: @unchecked Sendable {
    var fields: Fields

    init(_ fields: Fields) {
        self.fields = fields
    }
}

/// The handle a value type stores: reads go to the box, writes copy it first when shared.
struct CopyOnWrite<Fields: Sendable>: Sendable {
    private var box: CopyOnWriteBox<Fields>

    init(_ fields: Fields) {
        box = CopyOnWriteBox(fields)
    }

    /// The fields, for reading.
    var fields: Fields {
        _read { yield box.fields }
    }

    /// Whether both handles share one box (then their fields are equal).
    func isIdentical(to other: Self) -> Bool { box === other.box }

    /// The box's identity: equal for handles that share one box, while one of them lives.
    var identity: ObjectIdentifier { ObjectIdentifier(box) }

    /// Mutates the fields, copying the box first when another value shares it.
    mutating func write<Result>(_ body: (inout Fields) -> Result) -> Result {
        if !isKnownUniquelyReferenced(&box) { box = CopyOnWriteBox(box.fields) }
        return body(&box.fields)
    }
}
