import Foundation
import JunctionTestSupport
import Testing

/// What a path tells: a file that calls Lua's C API says so in its name (`_capi.swift`, as
/// swift-crypto marks its BoringSSL files `_boring`), and folders are named for what
/// happens in them, not for who may see it.
@Suite struct SourceLayoutTests {
    static let sources = CLIPaths.repositoryRoot + "/Sources"

    /// Every Swift file under `Sources/`, relative to it.
    static func swiftFiles() throws -> [String] {
        let enumerator = try #require(FileManager.default.enumerator(atPath: sources))
        return enumerator.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }.sorted()
    }

    /// Whether `text` imports the CLua module (at any access level).
    static func importsCLua(_ text: String) -> Bool {
        text.split(separator: "\n").contains { line in
            let words = line.split(separator: " ")
            guard let at = words.firstIndex(of: "import"), at + 1 < words.count else { return false }
            return words[at + 1] == "CLua"
                && words[..<at].allSatisfy { ["public", "package", "internal", "@preconcurrency"].contains($0) }
        }
    }

    @Test func aFileCallsLuasCAPIExactlyWhenItsNameSaysSo() throws {
        var unmarked: [String] = []
        var marked: [String] = []
        for file in try Self.swiftFiles() {
            let text = try String(contentsOfFile: Self.sources + "/" + file, encoding: .utf8)
            let named = file.hasSuffix("_capi.swift")
            if Self.importsCLua(text) && !named { unmarked.append(file) }
            if !Self.importsCLua(text) && named { marked.append(file) }
        }
        #expect(unmarked == [], "these import CLua: name them *_capi.swift")
        #expect(marked == [], "these are named *_capi.swift but do not import CLua")
    }

    @Test func theImportReaderSeesEveryAccessLevelAndNothingElse() {
        #expect(Self.importsCLua("import Foundation\nimport CLua\n"))
        #expect(Self.importsCLua("package import CLua"))
        #expect(!Self.importsCLua("import CLuaShim\n// import CLua is a comment"))
    }

    @Test func noFolderIsNamedForVisibility() throws {
        let folders = try #require(FileManager.default.enumerator(atPath: Self.sources)).compactMap { $0 as? String }
            .filter { $0.split(separator: "/").last == "Internal" }
        #expect(folders == [], "name these folders for what happens in them")
    }
}
