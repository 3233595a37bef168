import ArgumentParser
import Foundation
import Junction
import JunctionArtifact
import JunctionCore

/// `junction bundle inspect FILE [--json]`: what an artifact says about itself, without a key.
struct BundleInspectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inspect",
        abstract: "Show a .jbundle's header, test count, members and hashes; the signature is not checked.",
        discussion: """
            Exit status: 0 when the structure is sound and every member has its hash, 1 when \
            it is refused or a hash differs (the typed reason is printed), 2 when the file \
            cannot be read.
            """
    )

    @Argument(help: ArgumentHelp("The artifact.", valueName: "file"))
    var file: String

    @Flag(help: "One JSON object instead of text.")
    var json = false

    func run() throws {
        let bytes = try ArtifactFile.readForCommand(file)
        let inspection: ArtifactInspection
        do {
            inspection = try Artifact.inspect(bytes)
        } catch {
            print("\(file): refused: \(error)")
            throw ExitCode(1)
        }
        let tests = inspection.testCount(in: bytes)
        print(json ? renderJSON(inspection, tests: tests) : renderText(inspection, tests: tests), terminator: "")
        if !inspection.hashMismatches.isEmpty { throw ExitCode(1) }
    }

    private func renderText(_ inspection: ArtifactInspection, tests: Int?) -> String {
        let header = inspection.header
        let bad = Set(inspection.hashMismatches)
        var lines = [
            "\(file): \(ControlCharacters.escaped(header.name)) \(ControlCharacters.escaped(header.version)), format \(header.format), \(inspection.length) bytes",
            "  created   \(header.created.formatted(.iso8601))",
            "  expires   \(header.expires.formatted(.iso8601))",
        ]
        if let minimum = header.minimumHostVersion {
            lines.append("  minimum host version \(ControlCharacters.escaped(minimum))")
        }
        lines.append("  key id    \(header.keyID) (signature not checked)")
        lines.append("  tests     \(tests.map(String.init) ?? "unreadable")")
        lines.append("  members:")
        let kindWidth = header.members.map(\.kind.name.count).max() ?? 0
        let lengthWidth = header.members.map { String($0.length).count }.max() ?? 0
        for member in header.members {
            let kind = member.kind.name.padding(toLength: kindWidth, withPad: " ", startingAt: 0)
            let length =
                String(repeating: " ", count: lengthWidth - String(member.length).count) + String(member.length)
            let mark = bad.contains(member.path) ? "  HASH MISMATCH" : ""
            lines.append("    \(kind)  \(length)  \(member.sha256)  \(ControlCharacters.escaped(member.path))\(mark)")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private func renderJSON(_ inspection: ArtifactInspection, tests: Int?) -> String {
        let header = inspection.header
        let bad = Set(inspection.hashMismatches)
        var object = JSONWriter()
        object.add("file", .string(file))
        object.add("name", .string(header.name))
        object.add("version", .string(header.version))
        object.add("format", .raw(String(header.format)))
        object.add("length", .raw(String(inspection.length)))
        object.add("created", .string(header.created.formatted(.iso8601)))
        object.add("expires", .string(header.expires.formatted(.iso8601)))
        object.add("minimum_host_version", header.minimumHostVersion.map { .string($0) } ?? .null)
        object.add("key_id", .string(header.keyID))
        object.add("signature", .string("not checked"))
        object.add("tests", tests.map { .raw(String($0)) } ?? .null)
        let members = header.members.map { member in
            var row = JSONWriter()
            row.add("path", .string(member.path))
            row.add("kind", .string(member.kind.name))
            row.add("length", .raw(String(member.length)))
            row.add("sha256", .string(member.sha256))
            row.add("hash_ok", .raw(bad.contains(member.path) ? "false" : "true"))
            return row.rendered
        }
        object.add("members", .raw("[" + members.joined(separator: ", ") + "]"))
        return object.rendered + "\n"
    }
}
