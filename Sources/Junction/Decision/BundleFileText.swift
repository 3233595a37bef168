import Foundation
import JunctionCore

/// A bundle's YAML or JSON file (its manifest, its route table) read again for a finding
/// about a member the loaded bundle keeps no place for — `minimum_host_version`,
/// `dispatchedSchemes` — so that the finding points where the member is written.
///
/// Only the first ``maximumBytes`` are read; a member written further is not found, and
/// the finding points at the file.
package struct BundleFileText {
    /// The most bytes read.
    package static let maximumBytes = 1 << 20
    /// How many lines after a member's own a value of it is looked for.
    package static let continuationLines = 32

    /// The file, as findings name it.
    package let path: String
    private let lines: [Substring]

    /// The first of `names` inside `directory` that can be read; `nil` when none can.
    /// - Parameters:
    ///   - directory: The bundle's folder.
    ///   - names: The names the loader tries, in its order (`manifest.yaml`, …).
    package init?(directory: String, names: [String]) {
        for name in names {
            let path = directory.hasSuffix("/") ? directory + name : directory + "/" + name
            guard let handle = FileHandle(forReadingAtPath: path) else { continue }
            defer { try? handle.close() }
            guard let data = try? handle.read(upToCount: Self.maximumBytes) else { continue }
            self.path = path
            lines = String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
            return
        }
        return nil
    }

    /// The file's first line.
    package var start: SourceLocation { SourceLocation(file: path, line: 1, column: 1) }

    /// Where member `key` is first written (`key:`, `"key":`, `{ key: … }`) on a line that
    /// is no YAML comment; with `value`, where that word is written after it, on its line
    /// or the indented lines below.
    /// - Parameters:
    ///   - key: The member's name.
    ///   - value: A word of its value, such as one scheme of a list.
    /// - Returns: The place, or `nil` when the member is not found.
    package func location(ofKey key: String, value: String? = nil) -> SourceLocation? {
        for (number, line) in lines.enumerated() where line.drop(while: { $0 == " " || $0 == "\t" }).first != "#" {
            guard let keyStart = Self.word(key, in: line, from: line.startIndex, followedByColon: true) else {
                continue
            }
            let found = SourceLocation(file: path, line: number + 1, column: Self.column(of: keyStart, in: line))
            guard let value else { return found }
            var searched = line[keyStart...]
            for next in (number + 1)..<min(lines.count + 1, number + 2 + Self.continuationLines) {
                if let start = Self.word(value, in: searched, from: searched.startIndex, followedByColon: false) {
                    let text = lines[next - 1]
                    return SourceLocation(file: path, line: next, column: Self.column(of: start, in: text))
                }
                guard next < lines.count, lines[next].first.map({ $0 == " " || $0 == "\t" || $0 == "-" }) == true
                else { break }
                searched = lines[next]
            }
            return found
        }
        return nil
    }

    /// Where `word` first stands alone in `text` (no letter, digit, `_`, `+`, `-` or `.`
    /// touches it; a quote may), followed by a colon when `followedByColon`.
    private static func word(
        _ word: String, in text: Substring, from start: Substring.Index, followedByColon: Bool
    ) -> Substring.Index? {
        var position = start
        while let range = text[position...].range(of: word) {
            position = range.upperBound
            let before = range.lowerBound > text.startIndex ? text[text.index(before: range.lowerBound)] : " "
            guard !isWordPart(before) else { continue }
            var after = text[range.upperBound...].drop { $0 == "\"" || $0 == "'" }
            if followedByColon {
                after = after.drop { $0 == " " || $0 == "\t" }
                guard after.first == ":" else { continue }
            } else if let next = after.first, isWordPart(next) {
                continue
            }
            return range.lowerBound
        }
        return nil
    }

    private static func isWordPart(_ character: Character) -> Bool {
        character.isLetter || character.isNumber || "_+-.".contains(character)
    }

    /// The 1-based column of `index` in `line`, in Unicode scalars as other findings count.
    private static func column(of index: Substring.Index, in line: Substring) -> Int {
        line.unicodeScalars.distance(from: line.startIndex, to: index) + 1
    }
}
