import CLua
import Foundation  // FileManager
import Testing

@testable import JunctionLua

/// The prelude's Lua files: each is a chunk of its own, so an error raised in its code
/// names its file and the line it is on, in the file as it is in the repository.
@Suite struct PreludeFileTests {
    /// `Sources/JunctionLua/Prelude/`, beside this test target.
    private static let directory: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appending(path: "Sources/JunctionLua/Prelude")

    @Test(arguments: SandboxPrelude.File.allCases)
    func eachFileIsEmbeddedAsItIsAndNamedAfterItself(_ file: SandboxPrelude.File) throws {
        let name = "\(file.name).lua"
        let onDisk = try #require(FileManager.default.contents(atPath: Self.directory.appending(path: name).path))
        #expect(file.source == Array(onDisk), "\(name) is not the text embedded for \(file)")
        #expect("\(file.chunkName)" == "=\(SandboxPrelude.shownPrefix)\(name)")
    }

    @Test func everyLuaFileOfThePreludeIsOneOfItsFiles() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: Self.directory.path)
        #expect(Set(names) == Set(SandboxPrelude.File.allCases.map { "\($0.name).lua" }))
    }

    /// The error of calling, with no message handler, the function `expression` evaluates
    /// to in a sandbox: as Lua raised it, before a handler moves it to a rule's line.
    private static func rawMessage(calling expression: String) throws -> String {
        let sandbox = try LuaState(limits: SandboxLimits()) { _ in }
        let handler = try sandbox.run(source: "return \(expression)", chunkName: "probe.lua", results: 1)
        defer { sandbox.reset(to: handler - 1) }
        lua_pushvalue(sandbox.handle, handler + 1)
        #expect(jl_pcall(sandbox.handle, 0, 0, 0) == LUA_ERRRUN)
        return String(cString: lua_tolstring(sandbox.handle, -1, nil))
    }

    /// The number, from 1, of the one line of `file` on disk that contains `text`.
    private static func line(containing text: String, in file: SandboxPrelude.File) throws -> Int {
        let source = try String(contentsOf: directory.appending(path: "\(file.name).lua"), encoding: .utf8)
        let lines = source.split(separator: "\n", omittingEmptySubsequences: false)
        let found = lines.indices.filter { lines[$0].contains(text) }
        try #require(found.count == 1, "\(file.name).lua has \(found.count) lines with \(text)")
        return found[0] + 1
    }

    // Errors Lua raises in the prelude's own code, at the prelude's line (level 1).
    @Test(arguments: [
        (
            SandboxPrelude.File.libraries, "function() return table.concat(setmetatable({}, {}), '', {}) end",
            "for k = i, j do", "bad 'for' initial value (number expected, got table)"
        ),
        (
            .ruleAPI,
            "function() interceptor { name = 'i', routes = setmetatable({}, { __len = function() return 'n' end }) } end",
            "for i = 1, #list do", "bad 'for' limit (number expected, got string)"
        ),
    ])
    func anErrorInAPreludeFileNamesThatFileAndItsLine(
        file: SandboxPrelude.File, call: String, marker: String, message: String
    ) throws {
        let line = try Self.line(containing: marker, in: file)
        let raised = try Self.rawMessage(calling: call)
        #expect(raised == "junction/sandbox/\(file.name).lua:\(line): \(message)")
    }

    @Test func aRuleSeesTheSameErrorAtItsOwnLine() throws {
        let sandbox = try LuaState(limits: SandboxLimits()) { _ in }
        let error = #expect(throws: LuaError.self) {
            try sandbox.evaluate(
                source: "\nlocal v = table.concat(setmetatable({}, {}), '', {})\nreturn v", chunkName: "rule.lua")
        }
        #expect(error?.description == "rule.lua:2: bad 'for' initial value (number expected, got table)")
    }
}
