/// Which lines of a bundle's Lua files ran: for each file (by its ``RuleSource/name``),
/// the lines that hold code of the bundle's functions and those of them that ran.
///
/// Recorded by an engine created with coverage on (``RuleEngine/coverage``,
/// ``RuleEnginePool/coverage``). What counts:
/// - **Executable lines** are the lines holding code inside the functions a file defines —
///   rules, helpers, declared `run`/`when` functions, and functions nested in them at any
///   depth, whether or not they were ever created as values. Code at a file's top level
///   is left out: it runs once whenever the bundle loads, so it would count as covered
///   whatever the tests do. Lines follow Lua's own line information: a function's code
///   sits on the lines of its statements, and a `local f = function … end` inside a
///   function is created on its `end` line. The `end` of a function counts only when
///   code of it sits there (a bare `end` only runs when the body falls off its end).
/// - **Executed lines** are the executable lines that ran in a function, while the bundle
///   loaded or in any evaluation since recording started or was last reset.
///
/// Limits: coverage is by line, so a line counts as executed when any code of a function
/// on it ran (`if a then b() end` on one line is covered by a false `a`). And text a rule
/// compiles at run time with `load` under the name of a bundle file
/// (`load(text, "login.lua")`) cannot be told from that file: the lines functions defined
/// in that text run count for the file, where it has executable lines of the same numbers.
///
/// Coverage from several engines combines with ``merging(_:)``.
///
/// ```swift
/// let engine = try RuleEngine(sources: sources, coverage: true)
/// _ = try engine.evaluate("needs_login", arguments: [request, context])
/// for file in engine.coverage.files {
///     print(file, engine.coverage.percent(in: file), engine.coverage.missedLines(in: file))
/// }
/// ```
public struct RuleCoverage: Sendable, Hashable {
    /// The executable and executed lines of one file.
    private struct FileLines: Sendable, Hashable {
        var executable: Set<Int>
        var executed: Set<Int>
    }

    private var lines: [String: FileLines]

    /// Coverage of nothing: no files, ``percent`` 100.
    package init() {
        lines = [:]
    }

    /// Coverage from line sets, for tools that store or build reports.
    /// - Parameters:
    ///   - executableLines: Each file's executable lines; its keys are the files.
    ///   - executedLines: Lines that ran, by file; lines (and files) that are not
    ///     executable are ignored.
    package init(executableLines: [String: Set<Int>], executedLines: [String: Set<Int>] = [:]) {
        lines = executableLines.mapValues { FileLines(executable: $0, executed: []) }
        for (file, executed) in executedLines {
            guard let executable = executableLines[file] else { continue }
            lines[file]?.executed = executed.intersection(executable)
        }
    }

    /// The files covered, sorted; files without executable lines included.
    public var files: [String] { lines.keys.sorted() }

    /// The lines of `file` holding code of its functions, sorted; empty for an unknown file.
    public func executableLines(in file: String) -> [Int] {
        (lines[file]?.executable ?? []).sorted()
    }

    /// The executable lines of `file` that ran, sorted.
    public func executedLines(in file: String) -> [Int] {
        (lines[file]?.executed ?? []).sorted()
    }

    /// The executable lines of `file` that never ran, sorted.
    public func missedLines(in file: String) -> [Int] {
        guard let file = lines[file] else { return [] }
        return file.executable.subtracting(file.executed).sorted()
    }

    /// How many lines of all files are executable.
    public var executableLineCount: Int { lines.values.reduce(0) { $0 + $1.executable.count } }

    /// How many executable lines of all files ran.
    public var executedLineCount: Int { lines.values.reduce(0) { $0 + $1.executed.count } }

    /// The share of executable lines that ran, over all files, from 0 to 100; 100 when
    /// no line is executable.
    public var percent: Double { Self.percent(executed: executedLineCount, of: executableLineCount) }

    /// The share of `file`'s executable lines that ran, from 0 to 100; 100 when it has
    /// no executable line (or is not covered at all).
    public func percent(in file: String) -> Double {
        Self.percent(executed: lines[file]?.executed.count ?? 0, of: lines[file]?.executable.count ?? 0)
    }

    /// This coverage and `other` together: for each file, the union of their executable
    /// lines and the union of their executed lines.
    public func merging(_ other: RuleCoverage) -> RuleCoverage {
        var merged = self
        merged.merge(other)
        return merged
    }

    /// Adds `other` to this coverage, as ``merging(_:)`` does.
    public mutating func merge(_ other: RuleCoverage) {
        lines.merge(other.lines) { mine, theirs in
            FileLines(
                executable: mine.executable.union(theirs.executable), executed: mine.executed.union(theirs.executed))
        }
    }

    private static func percent(executed: Int, of executable: Int) -> Double {
        executable == 0 ? 100 : Double(executed) * 100 / Double(executable)
    }
}
