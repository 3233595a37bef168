import JunctionCore
@testable import JunctionLua
import Testing

@Suite struct ChunkIsolationTests {
    @Test(arguments: [
        "io", "os", "package", "debug", "coroutine", "require", "dofile", "loadfile", "string.dump", "math.random",
        "math.randomseed", "warn",
    ])
    func hidesUnsafeGlobals(expression: String) throws {
        let sandbox = try LuaState(limits: SandboxLimits()) { _ in }
        #expect(try sandbox.evaluate(source: "return \(expression) == nil", chunkName: "globals.lua") == [true])
    }

    @Test(arguments: [
        "pairs", "pcall", "setmetatable", "tostring", "string.format", "string.rep", "table.concat", "math.floor",
        "utf8.char",
    ])
    func keepsTheSafeLibraries(expression: String) throws {
        let sandbox = try LuaState(limits: SandboxLimits()) { _ in }
        #expect(try sandbox.evaluate(source: "return type(\(expression))", chunkName: "globals.lua") == ["function"])
    }

    @Test func sendsPrintToTheHandler() throws {
        let lines = Locked<[String]>([])
        let sandbox = try LuaState(limits: SandboxLimits()) { line in lines.withLock { $0.append(line) } }
        _ = try sandbox.evaluate(
            source:
                "print('open', 1, 2.5, nil, true) print() print(setmetatable({}, {__tostring = function() return 'T' end}))",
            chunkName: "print.lua")
        #expect(lines.withLock { $0 } == ["open\t1\t2.5\tnil\ttrue", "", "T"])
    }

    @Test func reportsAnErrorRaisedWhilePrinting() throws {
        let sandbox = try LuaState(limits: SandboxLimits()) { _ in }
        let error = #expect(throws: LuaError.self) {
            try sandbox.evaluate(
                source: "print(setmetatable({}, {__tostring = function() error('no text') end}))",
                chunkName: "print.lua")
        }
        #expect(error?.description == "print.lua:1: no text")
        #expect(try sandbox.evaluate(source: "return 'still here'", chunkName: "after.lua") == ["still here"])
    }

    /// A budget large enough for the memory cap to come first: growing the heap is
    /// charged to the budget, a byte an instruction.
    static let memoryFirst = SandboxLimits(
        memoryBytes: 1024 * 1024, instructions: 50_000_000, decisionTime: .seconds(120))

    @Test func capsMemoryAndRecovers() throws {
        let sandbox = try LuaState(limits: Self.memoryFirst) { _ in }
        let error = #expect(throws: LuaError.self) {
            try sandbox.evaluate(source: "local t = {} for i = 1, 1e7 do t[i] = i end", chunkName: "hog.lua")
        }
        #expect(error?.code == .memory)
        #expect(error?.description == "hog.lua: memory budget exceeded: the sandbox may hold at most 1048576 bytes")
        #expect(try sandbox.evaluate(source: "return 1 + 1", chunkName: "after.lua") == [2])
        #expect(sandbox.memoryInUse <= sandbox.memoryLimit)
    }

    @Test func capsMemoryOfASingleHugeString() throws {
        let sandbox = try LuaState(limits: Self.memoryFirst) { _ in }
        let refused = #expect(throws: LuaError.self) {
            try sandbox.evaluate(source: "return ('x'):rep(1 << 24)", chunkName: "rep.lua")
        }
        #expect(refused?.code == .memory)
        let error = #expect(throws: LuaError.self) {
            try sandbox.evaluate(
                source: "local s = ('x'):rep(1 << 18) return s .. s .. s .. s .. s", chunkName: "concat.lua")
        }
        #expect(error?.code == .memory)
    }

    @Test func refusesALimitTooSmallToOpenTheLibraries() {
        let error = #expect(throws: LuaError.self) { try LuaState(memoryLimit: 4096) { _ in } }
        #expect(error?.code == .memory)
        #expect(error?.chunkName == "sandbox")
    }
}
