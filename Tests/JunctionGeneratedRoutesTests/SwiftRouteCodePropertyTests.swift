import Junction
import JunctionAuthoring
import JunctionTestSupport
import Testing

/// Random route tables whose texts try every way out of a comment or a literal: the
/// generated file holds exactly the declarations the table's routes make, and none of
/// the tables' texts outside a comment or a literal.
@Suite struct SwiftRouteCodePropertyTests {
    /// Pieces of text that end, open or close something in Swift, without a letter or
    /// digit (so names keep their Swift identifiers) and without a control character (so
    /// the loader takes them).
    static let punctuation = [
        "\"", "\\", "\\(", "*/", "/*", "//", "`", "``", "\"\"\"", "#", "{", "}", ";", "(", ")", "é", "用户", "\u{200F}",
    ]
    /// What a description may also hold: words that would be code, and every line break.
    static let payloads = [
        " INJECTED ", "static let INJECTED = { print(\"owned\") }()", "func INJECTED() {}", "}()", " ",
    ]
    static let breaks = ["\n", "\r\n", "\r", "\u{2028}", "\u{2029}", "\u{85}", "\t", "\u{202E}", "\u{0}", "\u{1B}"]
    static let regexes = [#"[0-9]+"#, #"[a-z"]+"#, #"INJECTED|\*"#, #"[`]{2}"#, #"é+"#, #"x\\\(y"#]
    static let constants = [
        "a", "INJECTED", "%0Astatic%20let%20INJECTED", "caf%C3%A9", "q%22x", "%60%60", "%60%2A%2F%60",
    ]

    static func text(_ random: inout SplitMix64, from pieces: [[String]], count: Int) -> String {
        (0..<count).map { _ in random.pick(random.pick(pieces)) }.joined()
    }

    /// A table of `count` routes, each with path parameters (some with regexes), optional
    /// groups, query parameters with defaults and descriptions full of line breaks.
    static func table(_ random: inout SplitMix64, count: Int) throws -> RouteTable {
        var routes: [Route] = []
        for index in 0..<count {
            var pattern = "myapp://r\(index)"
            var parameters: [ParameterDeclaration] = []
            for segment in 0..<random.next(below: 4) {
                switch random.next(below: 4) {
                case 0: pattern += "/" + random.pick(constants)
                case 1: pattern += "/:p\(segment)"
                case 2: pattern += "/:p\(segment)(\(random.pick(regexes)))"
                default: pattern += "/*"
                }
            }
            if random.chance(50) { pattern += "(/g\(index)/:o\(index)(/h\(index)))" }
            for segment in 0..<4 where pattern.contains(":p\(segment)") && random.chance(50) {
                parameters.append(
                    ParameterDeclaration(
                        "p\(segment)",
                        description: text(&random, from: [punctuation, payloads, breaks], count: random.next(below: 6)))
                )
            }
            for item in 0..<random.next(below: 3) {
                let name = "q\(item)" + text(&random, from: [punctuation], count: random.next(below: 3))
                let defaultValue =
                    random.chance(50)
                    ? ParameterValue.string(text(&random, from: [punctuation, payloads], count: random.next(below: 5)))
                    : nil
                parameters.append(
                    ParameterDeclaration(
                        name, defaultValue: defaultValue,
                        description: random.chance(50)
                            ? text(&random, from: [punctuation, payloads, breaks], count: random.next(below: 6)) : nil))
            }
            routes.append(
                Route(
                    name: "r\(index)" + text(&random, from: [punctuation], count: random.next(below: 4)),
                    pattern: pattern,
                    description: random.chance(70)
                        ? text(&random, from: [punctuation, payloads, breaks], count: random.next(below: 8)) : nil,
                    parameters: parameters))
        }
        return try RouteTable(routes: routes)
    }

    /// The file's code without its comments and with each literal as `""`; `nil` when a
    /// literal runs past its line or a block comment appears.
    static func code(_ file: String) -> String? {
        var out = ""
        var scalars = file.unicodeScalars.makeIterator()
        var previous: Unicode.Scalar?
        while let scalar = scalars.next() {
            switch scalar {
            case "\"":
                out += "\"\""
                while true {
                    guard let next = scalars.next(), next != "\n" else { return nil }
                    if next == "\\" {
                        _ = scalars.next()
                    } else if next == "\"" {
                        break
                    }
                }
            case "/" where previous == "/":
                out.unicodeScalars.removeLast()
                while let next = scalars.next(), next != "\n" {}
                out += "\n"
                previous = "\n"
                continue
            case "*" where previous == "/":
                return nil
            default:
                out.unicodeScalars.append(scalar)
            }
            previous = scalar == "\"" ? nil : scalar
        }
        return out
    }

    /// A line of code starts with one of these: the generator's own words, never a table's.
    static let openings = [
        "}", "internal ", "private ", "let ", "var ", "if ", "_path", "_query", "return ", "preconditionFailure(",
        "import ", "for ", "switch ", "case ", "default:", "out", "path.", "origin.",
    ]

    @Test(arguments: 0..<40)
    func writesExactlyTheDeclarationsOfTheTable(seed: UInt64) throws {
        var random = SplitMix64(seed: seed)
        let table = try Self.table(&random, count: 1 + random.next(below: 12))
        let file = try SwiftRouteCode.generate(
            table, source: "routes.yaml", options: SwiftRouteCodeOptions(command: "junction codegen"))
        // No control character but the line feeds the writer puts there.
        #expect(!file.unicodeScalars.contains { $0 != "\n" && ControlCharactersProbe.isControl($0) })
        let code = try #require(Self.code(file), "a literal spans lines or a block comment opens:\n\(file)")
        let lines = code.split(separator: "\n").map { $0.drop { $0 == " " } }.filter { !$0.isEmpty }
        let names = lines.filter { $0.hasPrefix("internal static let ") }
        let functions = lines.filter { $0.hasPrefix("internal static func ") }
        #expect(names.count == table.routes.count, "\(file)")
        #expect(functions.count == table.routes.count, "\(file)")
        #expect(lines.filter { $0.contains("func ") }.count == table.routes.count + 8, "\(file)")
        #expect(lines.filter { $0.contains("static let ") }.count == table.routes.count, "\(file)")
        #expect(!code.contains("INJECTED") && !code.contains("owned"), "\(file)")
        for line in lines {
            #expect(Self.openings.contains { line.hasPrefix($0) }, "\(line)")
        }
    }
}

/// The loader's set of control characters, restated so the test does not trust the code it
/// tests.
enum ControlCharactersProbe {
    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || (0x2028...0x202E).contains(scalar.value)
            || (0x2066...0x2069).contains(scalar.value)
    }
}
