extension ChunkScanner {
    /// The lines where the function a dump holds, or a function nested in it, tail-calls
    /// the global `callee` (`return redirect(...)`), each once, read from the dump's code
    /// and line information; empty when the dump cannot be read.
    ///
    /// What places an error that came through a tail call: Lua reuses the caller's frame
    /// for the callee, so when a sandbox function raises at its caller's level, no frame
    /// says which line of the rule called it. Its work is linear in the dump's size.
    /// - Parameters:
    ///   - dump: What `lua_dump` wrote of the function, with its debug information.
    ///   - callee: The global the failing function was read as (`redirect`).
    static func tailCallLines(in dump: UnsafeRawBufferPointer, calling callee: String) -> [Int] {
        var scanner = ChunkScanner(names: GlobalNames(), file: "")
        do {
            try scanner.scan(dump)
        } catch {
            return []
        }
        var lines: [Int] = []
        for call in scanner.tailCalls where call.callee == callee && !lines.contains(call.line) {
            lines.append(call.line)
        }
        return lines
    }
}
