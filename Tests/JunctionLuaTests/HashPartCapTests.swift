import JunctionCore
import JunctionLua
import Testing

/// A table's hash part holds at most 1,024 keys while rules run: keys chosen to collide
/// made one insert rehash 8,192 of them into one chain, ~33 M node visits in a single
/// `OP_SETTABLE` (119–127 ms of one decision) that neither the count hook nor the time
/// backstop could interrupt. A larger hash part is refused before it is made.
@Suite struct HashPartCapTests {
    static func engine(_ text: String) throws -> RuleEngine {
        try SandboxIsolationTests.engine(text)
    }

    static let refusal = "a table may hold at most 1024 keys outside its array part"

    @Test(arguments: [
        // Regression: integer keys that collide in every part up to 16,384 nodes' doubling.
        "local t = {} for k = 1, 8193 do t[k * 16383] = true end return #t",
        "local t = {} for k = 1, 1025 do t[k * 2047] = true end",
        "local t = {} for k = 1, 1025 do t['k' .. k] = k end",
        "local t = {} for k = 1, 1025 do t[k + 0.5] = k end",
        "local ok = pcall(function() local t = {} for k = 1, 1025 do t[-k] = k end end) return ok and 'caught'",
    ])
    func aHashPartPastTheCapEndsTheEvaluation(_ body: String) throws {
        let engine = try Self.engine("function grow() \(body) end\nfunction fine() return 'fine' end")
        #expect {
            _ = try engine.evaluate("grow")
        } throws: { error in
            guard let error = error as? LuaError else { return false }
            return error.code == .memory && error.message.contains(Self.refusal)
        }
        #expect(try engine.evaluate("fine").value == "fine")
    }

    @Test(arguments: [
        "local t = {} for k = 1, 1024 do t[k * 2047] = true end local n = 0 for _ in pairs(t) do n = n + 1 end return n",
        "local t = {} for k = 1, 1024 do t['k' .. k] = k end local n = 0 for _ in pairs(t) do n = n + 1 end return n",
    ])
    func aHashPartAtTheCapIsFine(_ body: String) throws {
        let engine = try Self.engine("function fill() \(body) end")
        #expect(try engine.evaluate("fill").value == .int(1_024))
    }

    @Test func anArrayPartHasNoSuchCap() throws {
        let engine = try Self.engine("function fill() local t = {} for i = 1, 100000 do t[i] = i end return #t end")
        #expect(try engine.evaluate("fill").value == .int(100_000))
    }

    @Test func aBundleThatBuildsALargerHashPartWhileLoadingIsRefused() throws {
        #expect {
            _ = try Self.engine("LOOKUP = {} for k = 1, 2000 do LOOKUP['p' .. k] = k end")
        } throws: { error in
            guard let error = error as? LuaError else { return false }
            return error.code == .memory && error.message.contains(Self.refusal) && error.chunkName == "iso.lua"
        }
    }
}
