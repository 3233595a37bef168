import Foundation
import JunctionLua
import Testing

/// `junction --version` names the Lua release the rules run on, as the library reports it.
@Suite struct VersionTests {
    @Test func theVersionNamesTheLuaRelease() throws {
        let result = try CLIRunner.run(["--version"])
        #expect(result.status == 0)
        #expect(result.stdout == "junction, rules on \(LuaRelease.name)\n")
        #expect(LuaRelease.name.hasPrefix("Lua 5.4."))
    }
}
