internal import CLua

/// The sandbox's own Lua code: the files in `Sources/JunctionLua/Prelude/`, which SwiftPM
/// embeds in the binary (`PackageResources`), run once per state as trusted code before
/// any rule. Why each guard exists is written beside it, in Lua.
///
/// States load the files precompiled (``PreludeChunk``). A state runs `prelude.lua`
/// (``File/prelude``) with the host's functions (``HostFunctions/installPrelude``); it
/// runs the other files, which it finds in `host.parts` (``addHostFields(_:)``), and
/// returns the bundle's environment and `seal`.
///
/// Each file is a chunk of its own, named `=junction/sandbox/NAME.lua`, so an error raised
/// in its code is shown at its own file and line: `junction/sandbox/rule_api.lua:42: …`.
/// A rule never sees those positions: the message handlers put the rule's line in their
/// place, and skip prelude frames when they look for the rule's (``isPrelude(_:)``).
enum SandboxPrelude {
    /// A file of the prelude, in the order ``PreludeChunk`` keeps their chunks.
    enum File: Int, CaseIterable {
        case prelude, protectedCalls, ruleAPI, libraries, metatables, globals, sealing

        /// The file's name less `.lua`: the key of its function in `host.parts`.
        var name: StaticString {
            switch self {
            case .prelude: "prelude"
            case .protectedCalls: "protected_calls"
            case .ruleAPI: "rule_api"
            case .libraries: "libraries"
            case .metatables: "metatables"
            case .globals: "globals"
            case .sealing: "sealing"
            }
        }

        /// The chunk name: `=`, then ``SandboxPrelude/shownPrefix``, then the file's name.
        var chunkName: StaticString {
            switch self {
            case .prelude: "=junction/sandbox/prelude.lua"
            case .protectedCalls: "=junction/sandbox/protected_calls.lua"
            case .ruleAPI: "=junction/sandbox/rule_api.lua"
            case .libraries: "=junction/sandbox/libraries.lua"
            case .metatables: "=junction/sandbox/metatables.lua"
            case .globals: "=junction/sandbox/globals.lua"
            case .sealing: "=junction/sandbox/sealing.lua"
            }
        }

        /// The file's text, as SwiftPM embedded it.
        var source: [UInt8] {
            switch self {
            case .prelude: PackageResources.prelude_lua
            case .protectedCalls: PackageResources.protected_calls_lua
            case .ruleAPI: PackageResources.rule_api_lua
            case .libraries: PackageResources.libraries_lua
            case .metatables: PackageResources.metatables_lua
            case .globals: PackageResources.globals_lua
            case .sealing: PackageResources.sealing_lua
            }
        }
    }

    /// The chunk name of `prelude.lua`, the file a state runs.
    static var chunkName: StaticString { File.prelude.chunkName }

    /// How Lua shows the name of every prelude file, in messages and in `short_src`:
    /// it starts with this, then comes `NAME.lua`.
    static let shownPrefix: StaticString = "junction/sandbox/"

    /// Whether `shortSource`, a function's `short_src` (NUL-terminated), is a prelude file's.
    static func isPrelude(_ shortSource: UnsafePointer<CChar>) -> Bool {
        shownPrefix.withUTF8Buffer { prefix in
            // Stops at the first byte that differs, the terminator at the latest.
            for (offset, byte) in prefix.enumerated() where UInt8(bitPattern: shortSource[offset]) != byte {
                return false
            }
            return true
        }
    }

    /// Whether `shortSource`, a function's `short_src`, is a prelude file's.
    static func isPrelude(_ shortSource: String) -> Bool {
        shownPrefix.withUTF8Buffer { prefix in shortSource.utf8.starts(with: prefix) }
    }

    /// Adds what `prelude.lua` needs besides the host's functions to the table on top of
    /// the stack: `parts`, the function of every other file by its name (see ``File``),
    /// and `verdict`, the names of a verdict table (``VerdictTable``).
    ///
    /// Runs inside Lua, where it may raise, after ``PreludeChunk`` compiled the files
    /// (a state loads `prelude.lua` first); holds only raw pointers, integers and
    /// literals, so a raise skips no Swift cleanup.
    static func addHostFields(_ state: OpaquePointer?) {
        lua_createtable(state, 0, Int32(fileCount - 1))
        var rawValue = File.prelude.rawValue + 1
        while let file = File(rawValue: rawValue) {
            if PreludeChunk.push(file, into: state) != LUA_OK { _ = lua_error(state) }
            lua_setfield(state, -2, HostFunctions.cString(file.name))
            rawValue += 1
        }
        lua_setfield(state, -2, HostFunctions.cString("parts"))
        var count = 0
        while VerdictTable.name(at: count) != nil { count += 1 }
        lua_createtable(state, 0, Int32(count))
        for index in 0..<count {
            let name = VerdictTable.name(at: index).unsafelyUnwrapped
            jl_pushstring(state, HostFunctions.cString(name.spelling))
            lua_setfield(state, -2, HostFunctions.cString(name.handle))
        }
        lua_setfield(state, -2, HostFunctions.cString("verdict"))
    }

    /// How many files the prelude has.
    private static let fileCount = File.allCases.count
}
