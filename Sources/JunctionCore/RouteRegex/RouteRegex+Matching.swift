extension RouteRegex {
    /// Whether the regex matches all of a segment.
    /// - Parameter segment: The decoded segment's UTF-8 bytes.
    /// - Returns: `true` for a whole match.
    package func matchesWhole(_ segment: UnsafeBufferPointer<UInt8>) -> Bool {
        run(segment).matches
    }

    /// Whether the regex matches all of `text`.
    /// - Parameter text: The decoded segment.
    /// - Returns: `true` for a whole match.
    package func matchesWhole(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { run($0).matches }
    }

    /// Whether the regex matches all of `text`, and how many NFA steps that took: what
    /// tests hold against the linear bound.
    package func measuredMatch(_ text: String) -> (matches: Bool, steps: Int) {
        var text = text
        return text.withUTF8 { run($0) }
    }

    private func run(_ segment: UnsafeBufferPointer<UInt8>) -> (matches: Bool, steps: Int) {
        instructions.withUnsafeBufferPointer { program in
            sets.withUnsafeBufferPointer { sets in
                withUnsafeTemporaryAllocation(
                    of: Int32.self, capacity: RegexMachine.scratchCount(forProgramSize: program.count)
                ) { scratch in
                    var machine = RegexMachine(program: program, sets: sets, text: segment, scratch: scratch)
                    let matches = machine.run()
                    return (matches, machine.steps)
                }
            }
        }
    }
}
