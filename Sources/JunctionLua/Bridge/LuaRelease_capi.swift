import CLua

/// The Lua release Junction's rules run on, as the CLI's `--version` and reports name it:
/// the sandbox is tested on the releases docs/apple-platforms.md lists.
public enum LuaRelease {
    /// `Lua 5.4.4`: the release of the headers the sandbox was built with.
    public static let name = String(cString: jl_release())
}
