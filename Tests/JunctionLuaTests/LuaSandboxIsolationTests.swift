import JunctionLua
import Synchronization
import Testing

@Suite struct LuaSandboxIsolationTests {
    @Test(arguments: [
        "io", "os", "package", "debug", "coroutine", "require", "dofile", "loadfile", "load", "collectgarbage",
        "string.dump",
    ])
    func hidesUnsafeGlobals(expression: String) throws {
        let sandbox = try LuaSandbox()
        #expect(try sandbox.evaluate(source: "return \(expression) == nil", chunkName: "globals.lua") == [true])
    }

    @Test(arguments: [
        "pairs", "pcall", "setmetatable", "tostring", "string.format", "string.rep", "table.concat", "math.floor",
        "utf8.char",
    ])
    func keepsTheSafeLibraries(expression: String) throws {
        let sandbox = try LuaSandbox()
        #expect(try sandbox.evaluate(source: "return type(\(expression))", chunkName: "globals.lua") == ["function"])
    }

    @Test func sendsPrintToTheHandler() throws {
        let lines = Mutex<[String]>([])
        let sandbox = try LuaSandbox { line in lines.withLock { $0.append(line) } }
        _ = try sandbox.evaluate(
            source:
                "print('open', 1, 2.5, nil, true) print() print(setmetatable({}, {__tostring = function() return 'T' end}))",
            chunkName: "print.lua")
        #expect(lines.withLock { $0 } == ["open\t1\t2.5\tnil\ttrue", "", "T"])
    }

    @Test func reportsAnErrorRaisedWhilePrinting() throws {
        let sandbox = try LuaSandbox()
        let error = #expect(throws: LuaError.self) {
            try sandbox.evaluate(
                source: "print(setmetatable({}, {__tostring = function() error('no text') end}))",
                chunkName: "print.lua")
        }
        #expect(error?.description == "print.lua:1: no text")
        #expect(try sandbox.evaluate(source: "return 'still here'", chunkName: "after.lua") == ["still here"])
    }

    @Test func capsMemoryAndRecovers() throws {
        let sandbox = try LuaSandbox(memoryLimit: 1024 * 1024)
        let error = #expect(throws: LuaError.self) {
            try sandbox.evaluate(source: "local t = {} for i = 1, 1e7 do t[i] = i end", chunkName: "hog.lua")
        }
        #expect(error?.code == .memory)
        #expect(
            error?.description
                == "hog.lua: not enough memory: the chunk needs more than the sandbox's 1048576-byte limit")
        #expect(try sandbox.evaluate(source: "return 1 + 1", chunkName: "after.lua") == [2])
        #expect(sandbox.memoryInUse <= sandbox.memoryLimit)
    }

    @Test func capsMemoryOfASingleHugeString() throws {
        let sandbox = try LuaSandbox(memoryLimit: 1024 * 1024)
        let error = #expect(throws: LuaError.self) {
            try sandbox.evaluate(source: "return ('x'):rep(1 << 24)", chunkName: "rep.lua")
        }
        #expect(error?.code == .memory)
    }

    @Test func refusesALimitTooSmallToOpenTheLibraries() {
        let error = #expect(throws: LuaError.self) { try LuaSandbox(memoryLimit: 4096) }
        #expect(error?.code == .memory)
        #expect(error?.chunkName == "sandbox")
    }
}
