/// The regex of a `:name(regex)` route parameter, compiled to run in time linear in the
/// segment: matching simulates a Thompson NFA (every state at once, each at most once per
/// character), so no input makes it backtrack — every URL reaches the matcher, and a
/// regex such as `(a+)+b` must not turn one into minutes of work.
///
/// A route regex matches a **whole decoded path segment** — there is no search for a
/// match inside it — and only whether it matches counts: groups capture nothing.
///
/// ## Characters
///
/// The regex and the segment are read as **Unicode scalars** (the segment from its UTF-8
/// bytes; a byte that is not valid UTF-8 reads as U+FFFD). `.`, a class or a negated
/// class therefore takes a multi-byte character such as `é` (U+00E9) or `😀` as one.
/// Scalars are compared exactly, with no normalisation and no grapheme clustering, as
/// constant segments are: a precomposed `é` and `e` + U+0301 differ, and the latter is
/// two scalars to `.`.
///
/// ## Syntax
///
/// - A literal scalar matches itself. ASCII punctuation and space may be escaped and
///   then always mean themselves: `\.` `\(` `\)` `\[` `\]` `\{` `\}` `\\` `\/` `\-` `\*`
///   `\+` `\?` `\|` `\^` `\$` … An unescaped `]` or `}` outside a class is literal.
/// - `\t` `\n` `\v` `\f` `\r`, `\xHH`, `\x{H…}`, `\uHHHH` and `\u{H…}` name a scalar.
/// - `.` matches any scalar but a line break: U+000A–U+000D, U+0085, U+2028, U+2029
///   (what Swift's `Regex` leaves out).
/// - Shorthands are **ASCII only**: `\d` is `[0-9]`, `\w` is `[A-Za-z0-9_]`, `\s` is
///   `[\t\n\v\f\r ]`; `\D` `\W` `\S` are every other scalar (so `é` is `\W`).
/// - A class `[…]` lists scalars, ranges `a-z` (in scalar order; reversed is an error),
///   escapes and shorthands; `[^…]` is every scalar not listed. `-` first, last or right
///   after a range is literal; `]` and `[` inside a class are written `\]` and `\[`.
/// - Quantifiers `*` `+` `?` `{m}` `{m,}` `{m,n}` `{,n}`, counts up to ``maximumCount``;
///   each may be lazy (`*?`, `{2,5}?`), which matches the same whole segments.
/// - `|` alternation; groups `(…)`, `(?:…)`, `(?<name>…)`, `(?P<name>…)`, all the same
///   here, nested at most ``maximumNesting`` deep.
/// - `^` matches only at the start of the segment and `$` only at its end, wherever they
///   are written (as first and last they change nothing: the match is whole).
///
/// ## Refused
///
/// When the routes load, with what, where and what to write instead: back-references
/// (`\1`, `\k<name>`, `(?P=name)`) and lookaround (`(?=`, `(?!`, `(?<=`, `(?<!`), which
/// need backtracking; atomic groups `(?>` and possessive quantifiers (`a*+`), which a
/// regex that never backtracks does not need; inline flags (`(?i)`); assertions (`\b`,
/// `\A`, `\z`); Unicode properties (`\p{L}`); POSIX and nested classes and class set
/// operations (`[[:alpha:]]`, `&&`, `--`); any other escape of a letter or digit; a
/// quantifier with nothing to repeat or right after another; a `{` that starts no
/// quantifier; unbalanced `(` `)`, an unclosed `[`; counts above ``maximumCount``; and a
/// regex that compiles to more than ``maximumProgramSize`` instructions.
///
/// ## Cost
///
/// Compiling is bounded by the limits above. Matching takes at most
/// (scalars in the segment + 1) × ``programSize`` NFA steps of constant work, and scratch
/// space of four integers per instruction, on the stack when it fits; it does not
/// allocate on the heap for a program of ordinary size.
package struct RouteRegex: Sendable {
    /// The most a counted repetition may count: `{1000}`, `{0,1000}`.
    package static let maximumCount = 1000
    /// The most instructions a regex may compile to; what bounds the work per character.
    package static let maximumProgramSize = 2048
    /// How deep groups may nest.
    package static let maximumNesting = 64

    /// The regex as written.
    package let source: String
    let instructions: [RegexInstruction]
    /// The classes `set` instructions name.
    let sets: [ScalarSet]

    /// Reads and compiles a regex.
    /// - Parameter source: The regex as written in the pattern, between the parentheses
    ///   of `:name(…)`.
    /// - Throws: `PatternSyntaxError` saying what is wrong, where and what to do, with
    ///   its UTF-8 offset into `source`.
    package init(_ source: String) throws(PatternSyntaxError) {
        var parser = RegexParser(source)
        let node = try parser.parse()
        let scalars = Array(source.unicodeScalars)
        let compiler = try RegexCompiler(node) { offset in
            scalars[..<offset].reduce(0) { $0 + UTF8.width($1) }
        }
        self.source = source
        self.instructions = compiler.instructions
        self.sets = compiler.sets
    }

    /// How many instructions the regex compiled to (with the final `match`).
    package var programSize: Int { instructions.count }
}
