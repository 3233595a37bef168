import Foundation
import JunctionTestSupport
import Testing

/// The README's Layout section names every folder under `Sources/`, and nothing else; the
/// README stays a front door (at most 16 KB).
@Suite struct ReadmeLayoutTests {
    static let readme: String = {
        (try? String(contentsOfFile: CLIPaths.repositoryRoot + "/README.md", encoding: .utf8)) ?? ""
    }()

    /// The folders the Layout section's code block names: `Sources/X/`, and on a line that
    /// starts so, the `Y/` names after it (`Sources/CLua/ CLibYAML/ …`).
    static func namedFolders(in readme: String) -> Set<String> {
        guard let section = readme.range(of: "\n## Layout\n") else { return [] }
        let rest = readme[section.upperBound...]
        let end = rest.range(of: "\n## ")?.lowerBound ?? rest.endIndex
        guard let open = rest[..<end].range(of: "```\n"),
            let close = rest[open.upperBound..<end].range(of: "```")
        else { return [] }
        var names = Set<String>()
        for line in rest[open.upperBound..<close.lowerBound].split(separator: "\n") {
            guard line.hasPrefix("Sources/") else { continue }
            let words = line.split(separator: " ")
            for (index, word) in words.enumerated() {
                let name = index == 0 ? word.dropFirst("Sources/".count) : word
                guard name.hasSuffix("/"), name.count > 1 else { break }
                names.insert(String(name.dropLast()))
            }
        }
        return names
    }

    @Test func theLayoutNamesEveryFolderUnderSources() throws {
        let folders = try FileManager.default.contentsOfDirectory(atPath: CLIPaths.repositoryRoot + "/Sources")
            .filter { !$0.hasPrefix(".") }
        let named = Self.namedFolders(in: Self.readme)
        #expect(!named.isEmpty, "README.md has no Layout section with a code block")
        #expect(named.subtracting(folders).sorted() == [], "the Layout names folders Sources/ lacks")
        #expect(Set(folders).subtracting(named).sorted() == [], "the Layout misses folders of Sources/")
    }

    @Test func theReaderFindsWhatALayoutNamesAndMissesWhatItDoesNot() {
        let text = "# X\n\n## Layout\n\n```\nSources/A/  a\nSources/B/ C/ D/   maps\nTests/  no\n```\n\n## Next\n"
        #expect(Self.namedFolders(in: text) == ["A", "B", "C", "D"])
        #expect(Self.namedFolders(in: "# X\n\n## Status\n") == [])
    }

    @Test func theReadmeIsAFrontDoor() {
        #expect(Self.readme.utf8.count <= 16 * 1024, "README.md is \(Self.readme.utf8.count) bytes")
    }
}
