import JunctionCore
@testable import JunctionLua
import Testing

@Suite struct ChunkErrorTests {
    @Test(arguments: [
        ("return +", 1, "rules/bad.lua:1: unexpected symbol near '+'"),
        ("local a = 1\nlocal b = = 2", 2, "rules/bad.lua:2: unexpected symbol near '='"),
        ("if true then\n  return 1\n", 3, "rules/bad.lua:3: 'end' expected (to close 'if' at line 1) near <eof>"),
    ])
    func reportsSyntaxErrorsWithChunkAndLine(source: String, line: Int, description: String) throws {
        let sandbox = try LuaState(limits: SandboxLimits()) { _ in }
        let error = #expect(throws: LuaError.self) {
            try sandbox.evaluate(source: source, chunkName: "rules/bad.lua")
        }
        #expect(error?.code == .syntax)
        #expect(error?.chunkName == "rules/bad.lua")
        #expect(error?.line == line)
        #expect(error?.description == description)
    }

    @Test(arguments: [
        ("local t = nil\nreturn t.x", 2, "attempt to index a nil value (local 't')"),
        ("\n\nerror('no route for /home')", 3, "no route for /home"),
        ("local function check()\n  error('inner')\nend\ncheck()", 2, "inner"),
        // Raised by the C original inside the sandbox's wrappers (the prelude's, the
        // charged closure's), reported at the rule's line.
        ("local s = string.rep('x', -1, {})\nreturn s", 1, "bad argument #3 to 'rep' (string expected, got table)"),
        ("local t = {}\ntable.insert(t, 'x', 1)", 2, "bad argument #2 to 'insert' (number expected, got string)"),
        ("local a, b = string.find('x', '%')\nreturn a", 1, "malformed pattern (ends with '%')"),
    ])
    func reportsRuntimeErrorsWithChunkAndLine(source: String, line: Int, message: String) throws {
        let sandbox = try LuaState(limits: SandboxLimits()) { _ in }
        let error = #expect(throws: LuaError.self) {
            try sandbox.evaluate(source: source, chunkName: "rules/run.lua")
        }
        #expect(error?.code == .runtime)
        #expect(error?.line == line)
        #expect(error?.message == message)
        #expect(error?.description == "rules/run.lua:\(line): \(message)")
    }

    @Test func reportsAnErrorWithoutPositionWithoutALine() throws {
        let sandbox = try LuaState(limits: SandboxLimits()) { _ in }
        let error = #expect(throws: LuaError.self) {
            try sandbox.evaluate(source: "error('plain', 0)", chunkName: "plain.lua")
        }
        #expect(error?.line == nil)
        #expect(error?.description == "plain.lua: plain")
    }

    @Test(arguments: [
        ("error({})", "(error object is a table value)"),
        ("error(true)", "(error object is a boolean value)"),
        ("error(42)", "42"),
        ("error()", "(error object is a nil value)"),
    ])
    func describesNonStringErrorObjectsByType(source: String, message: String) throws {
        let sandbox = try LuaState(limits: SandboxLimits()) { _ in }
        let error = #expect(throws: LuaError.self) {
            try sandbox.evaluate(source: source, chunkName: "object.lua")
        }
        #expect(error?.code == .runtime)
        #expect(error?.description == "object.lua:1: \(message)")
    }

    @Test(.timeLimit(.minutes(5)))
    func neverCallsTostringOnAnErrorObject() throws {
        let sandbox = try LuaState(limits: SandboxLimits()) { _ in }
        let source = """
            local object = setmetatable({}, { __tostring = function() while true do end end, __name = "Trap" })
            error(object)
            """
        let error = #expect(throws: LuaError.self) {
            try sandbox.evaluate(source: source, chunkName: "trap.lua")
        }
        #expect(error?.description == "trap.lua:2: (error object is a table value)")
    }

    @Test(arguments: [
        "\u{1B}Lua\u{54}\u{00}\u{19}\u{93}\r\n\u{1A}\n",
        "\u{1B}",
    ])
    func refusesBinaryChunks(source: String) throws {
        let sandbox = try LuaState(limits: SandboxLimits()) { _ in }
        let error = #expect(throws: LuaError.self) {
            try sandbox.evaluate(source: source, chunkName: "compiled.luac")
        }
        #expect(error?.code == .binaryChunkRefused)
        #expect(
            error?.description == "compiled.luac: refusing a binary (precompiled) chunk; rules must be Lua source text")
    }

    @Test func staysUsableAfterAnError() throws {
        let sandbox = try LuaState(limits: SandboxLimits()) { _ in }
        #expect(throws: LuaError.self) { try sandbox.evaluate(source: "error('x')", chunkName: "a.lua") }
        #expect(throws: LuaError.self) { try sandbox.evaluate(source: "return {print}", chunkName: "b.lua") }
        #expect(try sandbox.evaluate(source: "return 1 + 1", chunkName: "c.lua") == [2])
    }

    @Test func shortensALongChunkNameOnlyWhereLuaDoes() throws {
        let name = "rules/" + String(repeating: "x", count: 80) + ".lua"
        let sandbox = try LuaState(limits: SandboxLimits()) { _ in }
        let error = #expect(throws: LuaError.self) {
            try sandbox.evaluate(source: "\nerror('late')", chunkName: name)
        }
        #expect(error?.chunkName == name)
        #expect(error?.line == 2)
        #expect(error?.message == "late")
    }
}
