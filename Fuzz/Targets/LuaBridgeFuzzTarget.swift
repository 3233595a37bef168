import Foundation
import JunctionCore
import JunctionLua

extension FuzzTarget {
    /// The value bridge between Swift and Lua: a ``RuleValue`` generated from the bytes
    /// (nil, booleans, integers, floats from any bit pattern, strings and byte strings of up
    /// to 64 bytes — byte 0x01 standing for NUL, which separates fields — arrays and string-
    /// keyed tables, nested up to 6 deep, about 64 values) is passed through
    /// `function id(x) return x end` in a sandboxed ``RuleEngine`` made once, with tight
    /// ``RuleValueLimits`` (4 levels, 40 values, 256 string bytes).
    ///
    /// A value beyond a limit, or holding `nil` inside a table, is refused with a
    /// `conversion` error and a message, and the engine works on after it. Any other comes
    /// back as it went in, as ``RuleValue`` documents the bridge: `.array([])` as
    /// `.table([:])`, `.bytes` that are valid UTF-8 as `.string`; floats bit for bit (`-0.0`
    /// keeps its sign), NaN as some NaN; strings and keys byte for byte.
    static let luaBridge = FuzzTarget(
        name: "lua-bridge",
        summary: "Lua value bridge: a value comes back from Lua as documented, or is refused beyond its limits"
    ) { bytes throws(FuzzFailure) in
        var generator = RuleValueGenerator(input: FuzzInput(bytes))
        let value = generator.value(depth: 0)
        try LuaBridgeFuzzing.shared.check(value)
    }
}

/// A ``RuleValue`` drawn from fuzz bytes: every choice is a byte, so a short input makes a
/// small value and every input makes one.
private struct RuleValueGenerator {
    static let maximumDepth = 6
    static let maximumValues = 64
    static let maximumStringBytes = 64

    var input: FuzzInput
    /// The values made so far.
    private var made = 0

    init(input: FuzzInput) {
        self.input = input
    }

    mutating func value(depth: Int) -> RuleValue {
        made += 1
        let canNest = depth < Self.maximumDepth && made < Self.maximumValues
        switch input.choice(canNest ? 11 : 9) {
        case 0: return .nil
        case 1: return .bool(input.byte() & 1 == 1)
        case 2: return .int(Int64(Int8(bitPattern: input.byte())))
        case 3: return .int(Int64(bitPattern: word()))
        case 4: return .double(Double(bitPattern: word()))
        case 5:
            let specials: [Double] = [
                0, -0.0, 0.5, -1.5, .nan, .infinity, -.infinity, 1e308, .leastNonzeroMagnitude, 9_007_199_254_740_992,
            ]
            return .double(specials[input.choice(specials.count)])
        case 6: return .double(Double(Int8(bitPattern: input.byte())))
        case 7: return .string(String(fuzzBytes: text()))
        case 8: return .bytes(text())
        case 9:
            var elements: [RuleValue] = []
            for _ in 0..<input.choice(6) where made < Self.maximumValues {
                elements.append(value(depth: depth + 1))
            }
            return .array(elements)
        default:
            var fields: [String: RuleValue] = [:]
            for _ in 0..<input.choice(6) where made < Self.maximumValues {
                let key = String(fuzzBytes: Array(text().prefix(16)))
                fields[key] = value(depth: depth + 1)
            }
            return .table(fields)
        }
    }

    /// A field of at most 64 bytes, 0x01 read as NUL.
    private mutating func text() -> [UInt8] {
        input.field().prefix(Self.maximumStringBytes).map { $0 == 0x01 ? 0x00 : $0 }
    }

    /// Eight bytes, big-endian.
    private mutating func word() -> UInt64 {
        var value: UInt64 = 0
        for _ in 0..<8 { value = value << 8 | UInt64(input.byte()) }
        return value
    }
}

/// The engine of the `lua-bridge` target, made once. A Lua state is single-threaded and
/// ``RuleEngine`` is not `Sendable`; libFuzzer calls a target from one thread, and the lock
/// keeps the replaying tests, which may run targets side by side, to one caller at a time.
private final class LuaBridgeFuzzing: @unchecked Sendable {
    static let shared = LuaBridgeFuzzing()

    static let limits = RuleValueLimits(maximumDepth: 4, maximumValueCount: 40, maximumStringBytes: 256)

    private let lock = NSLock()
    private let engine: RuleEngine

    private init() {
        engine = try! RuleEngine(
            sources: [RuleSource(name: "id.lua", text: "function id(x) return x end")],
            valueLimits: Self.limits)
    }

    /// `value` through `id`, or the refusal.
    private func roundTrip(_ value: RuleValue) -> Result<RuleValue, LuaError> {
        do throws(LuaError) {
            return .success(try engine.evaluate("id", arguments: [value]).value)
        } catch {
            return .failure(error)
        }
    }

    func check(_ value: RuleValue) throws(FuzzFailure) {
        lock.lock()
        defer { lock.unlock() }
        let size = Size(of: value)
        let refused =
            size.depth > Self.limits.maximumDepth || size.values > Self.limits.maximumValueCount
            || size.stringBytes > Self.limits.maximumStringBytes || size.holdsNilInTable
        switch roundTrip(value) {
        case .success(let back):
            try require(!refused, "a value beyond the limits or with nil in a table is refused", "\(size): \(value)")
            let expected = Self.normalized(value)
            try require(
                Self.same(back, expected), "a value comes back from Lua as it went in", "\(back) ≠ \(expected)")
        case .failure(let error):
            try require(refused, "a value within the limits crosses to Lua and back", "\(error) for \(size): \(value)")
            try require(error.code == .conversion, "a value beyond the limits is a conversion error", "\(error)")
            try require(!error.message.isEmpty, "a refusal says why", "")
            // The engine works on after a refusal.
            let probe = RuleValue.array([.int(7), .string("x")])
            switch roundTrip(probe) {
            case .success(let back):
                try require(
                    Self.same(back, probe), "an engine works on after refusing a value", "\(back) after \(error)")
            case .failure(let next):
                throw FuzzFailure("an engine works on after refusing a value", "\(next) after \(error)")
            }
        }
    }

    /// What `value` comes back from Lua as: `.array([])` is the empty table and `.bytes`
    /// that are valid UTF-8 are a string.
    static func normalized(_ value: RuleValue) -> RuleValue {
        switch value {
        case .bytes(let bytes):
            let text = String(decoding: bytes, as: UTF8.self)
            return text.utf8.elementsEqual(bytes) ? .string(text) : value
        case .array(let elements):
            return elements.isEmpty ? .table([:]) : .array(elements.map(normalized))
        case .table(let fields):
            return .table(fields.mapValues(normalized))
        default:
            return value
        }
    }

    /// Equality, stricter than ``RuleValue``'s where the bridge promises more — floats bit
    /// for bit, strings and keys byte for byte — and NaN the same as NaN.
    static func same(_ left: RuleValue, _ right: RuleValue) -> Bool {
        switch (left, right) {
        case (.nil, .nil): return true
        case (.bool(let a), .bool(let b)): return a == b
        case (.int(let a), .int(let b)): return a == b
        case (.double(let a), .double(let b)): return a.isNaN ? b.isNaN : a.bitPattern == b.bitPattern
        case (.string(let a), .string(let b)): return a.utf8.elementsEqual(b.utf8)
        case (.bytes(let a), .bytes(let b)): return a == b
        case (.array(let a), .array(let b)):
            return a.count == b.count && zip(a, b).allSatisfy { same($0, $1) }
        case (.table(let a), .table(let b)):
            let byKey: (Dictionary<String, RuleValue>.Element, Dictionary<String, RuleValue>.Element) -> Bool = {
                $0.key.utf8.lexicographicallyPrecedes($1.key.utf8)
            }
            let sortedA = a.sorted(by: byKey)
            let sortedB = b.sorted(by: byKey)
            return sortedA.count == sortedB.count
                && zip(sortedA, sortedB).allSatisfy {
                    $0.key.utf8.elementsEqual($1.key.utf8) && same($0.value, $1.value)
                }
        default: return false
        }
    }

    /// What ``RuleValueLimits`` measure of a value.
    struct Size: CustomStringConvertible {
        /// How many tables nest: 0 for a scalar, 1 for a table of scalars.
        var depth = 0
        /// The value, every value inside it and every table; keys not counted.
        var values = 0
        /// The bytes of every string, byte string and key.
        var stringBytes = 0
        var holdsNilInTable = false

        init(of value: RuleValue) {
            depth = measure(value, inTable: false)
        }

        private mutating func measure(_ value: RuleValue, inTable: Bool) -> Int {
            values += 1
            switch value {
            case .nil:
                if inTable { holdsNilInTable = true }
                return 0
            case .bool, .int, .double:
                return 0
            case .string(let text):
                stringBytes += text.utf8.count
                return 0
            case .bytes(let bytes):
                stringBytes += bytes.count
                return 0
            case .array(let elements):
                var deepest = 0
                for element in elements { deepest = max(deepest, measure(element, inTable: true)) }
                return 1 + deepest
            case .table(let fields):
                var deepest = 0
                for (key, element) in fields {
                    stringBytes += key.utf8.count
                    deepest = max(deepest, measure(element, inTable: true))
                }
                return 1 + deepest
            }
        }

        var description: String {
            "depth \(depth), \(values) values, \(stringBytes) string bytes\(holdsNilInTable ? ", nil in a table" : "")"
        }
    }
}
