import Foundation
import JunctionCore
import JunctionLua

extension FuzzTarget {
    /// The sandbox's own `string.find/match/gmatch/gsub` against Lua 5.4's, differentially,
    /// through ``LuaPatternHarness`` — the reference `PatternDifferentialTests` use: the
    /// same Lua `run(kind, s, p, a3, a4)`, which renders the results (or the error message)
    /// as one string, in a sandboxed ``RuleEngine`` and in a plain `luaL_newstate` with
    /// Lua's own string library, both made once.
    ///
    /// Read: a byte choosing the function, two bytes choosing the third and fourth
    /// arguments from the harness's menus (`init` as nil, a small integer, ±100, the
    /// extreme integers, `"2"`, `2.0`, `1.5`, `"x"`; `plain`; a gsub replacement — one of
    /// the harness's strings or names, or the third field; gsub's `n`), a payload byte for
    /// the small integers, then fields: the subject (at most 64 bytes), the pattern (at most
    /// 32) and a replacement (at most 16), byte 0x01 standing for NUL in each.
    ///
    /// Asserted: both give the same bytes. The harness gives its sandbox budgets nothing
    /// reaches; this one runs under 500,000 instructions, so a call the sandbox stops for its
    /// budget (or its time) is not compared — and not run in plain Lua, whose matcher can
    /// take exponential time on such a pattern; what completes in the sandbox is bounded in
    /// plain Lua too (the sandbox charges at least the matcher's steps, PatternStepBoundTests).
    /// Any other error from the sandbox fails the property.
    static let luaPattern = FuzzTarget(
        name: "lua-pattern",
        summary: "Lua patterns: the sandbox's find/match/gmatch/gsub give the results and errors Lua's own give"
    ) { bytes throws(FuzzFailure) in
        var input = FuzzInput(bytes)
        let kind = ["find", "match", "gmatch", "gsub"][input.choice(4)]
        let third = input.byte()
        let fourth = input.byte()
        let payload = input.byte()
        let subject = LuaPatternFuzzing.nulMapped(input.field().prefix(64))
        let pattern = LuaPatternFuzzing.nulMapped(input.field().prefix(32))
        let replacement = LuaPatternFuzzing.nulMapped(input.field().prefix(16))
        var arguments: [RuleValue] = [.bytes(subject), .bytes(pattern)]
        switch kind {
        case "find":
            arguments += [
                LuaPatternFuzzing.start(third, payload),
                LuaPatternFuzzing.plain[Int(fourth) % LuaPatternFuzzing.plain.count],
            ]
        case "gsub":
            arguments += [
                LuaPatternFuzzing.replacement(third, replacement), LuaPatternFuzzing.limit(fourth, payload),
            ]
        default:
            arguments += [LuaPatternFuzzing.start(third, payload)]
        }
        try LuaPatternFuzzing.shared.compare(kind, arguments)
    }
}

/// The `lua-pattern` target's harness, made once, and its arguments from the menus of the
/// tests' generator. Neither a `lua_State` nor a ``RuleEngine`` is `Sendable`; libFuzzer
/// calls a target from one thread, and the lock keeps the replaying tests, which may run
/// targets side by side, to one caller at a time.
private final class LuaPatternFuzzing: @unchecked Sendable {
    static let shared = LuaPatternFuzzing()

    /// The sandbox's budget for one call: ample for any pattern on 64 bytes that does not
    /// backtrack exponentially. The time backstop is set far off, so only the count stops it.
    static let limits = SandboxLimits(instructions: 500_000, decisionTime: .seconds(60))

    // MARK: - Arguments, from the harness's generator's menus

    /// `init`: nil, a small integer from the payload, ±100, 0, the extreme integers, a numeric string, floats, text.
    static func start(_ choice: UInt8, _ payload: UInt8) -> RuleValue {
        let small = RuleValue.int(Int64(Int8(bitPattern: payload)))
        let menu: [RuleValue] = [
            .nil, .nil, .nil, small, small, small, .int(100), .int(-100), .int(0), .int(.max), .int(.min),
            .string("2"), .double(2), .double(1.5), .string("x"),
        ]
        return menu[Int(choice) % menu.count]
    }

    /// `plain` for find.
    static let plain: [RuleValue] = [.nil, .nil, .bool(true), .bool(false), .int(1)]

    /// A gsub replacement as the harness reads it: a string, the name of a table, a
    /// function, a number or a boolean — or the fuzzed `text`.
    static func replacement(_ choice: UInt8, _ text: [UInt8]) -> RuleValue {
        let menu = [
            "x", "", "%0", "%1", "%2", "<%1|%2>", "%%", "%", "a%", "%a", "%9", "[%0]",
            "table", "function", "number", "float", "boolean",
        ]
        let index = Int(choice) % (menu.count + 3)
        return index < menu.count ? .string(menu[index]) : .bytes(text)
    }

    /// `n` for gsub.
    static func limit(_ choice: UInt8, _ payload: UInt8) -> RuleValue {
        let menu: [RuleValue] = [
            .nil, .nil, .nil, .int(0), .int(1), .int(2), .int(-1), .string("2"), .double(1.5),
            .int(Int64(Int8(bitPattern: payload))), .int(.max), .int(.min),
        ]
        return menu[Int(choice) % menu.count]
    }

    /// `bytes` with 0x01 read as NUL, which cannot be in a field.
    static func nulMapped(_ bytes: ArraySlice<UInt8>) -> [UInt8] {
        bytes.map { $0 == 0x01 ? 0x00 : $0 }
    }

    // MARK: - The harness

    private let lock = NSLock()
    private let harness: LuaPatternHarness

    private init() {
        do {
            harness = try LuaPatternHarness(limits: Self.limits)
        } catch {
            fatalError("lua-pattern: \(error)")
        }
    }

    /// Runs `function(arguments...)` in both and compares the renderings.
    func compare(_ function: String, _ arguments: [RuleValue]) throws(FuzzFailure) {
        lock.lock()
        defer { lock.unlock() }
        let call = LuaPatternHarness.describe(function, arguments)
        let mine: [UInt8]
        switch harness.sandboxed(function, arguments) {
        case .success(let rendered):
            mine = rendered
        case .failure(let error) where error.code == .instructionBudget || error.code.endsDecision:
            return  // Not compared: the sandbox's budget, which plain Lua does not have.
        case .failure(let error):
            throw FuzzFailure("the harness runs in the sandbox", "\(error) for \(call)")
        }
        let lua = harness.original(function, arguments)
        try require(
            mine == lua, "the sandbox's pattern functions give what Lua's do",
            """
            \(call)
              sandbox: \(String(decoding: mine, as: UTF8.self).debugDescription)
              Lua:     \(String(decoding: lua, as: UTF8.self).debugDescription)
            """)
    }
}
