import Foundation
import Testing

/// Runs the built `junction` executable and captures what it prints.
struct CLIRunner {
    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String

        /// The first line of standard error: ArgumentParser's `Error: …` line, without the
        /// help and usage it prints after it.
        var errorLine: String { String(stderr.prefix { $0 != "\n" }) }
    }

    /// The `junction` binary beside the test bundle (SwiftPM builds it for this target).
    static var executable: URL {
        let products =
            Bundle.main.bundleURL.lastPathComponent.hasSuffix(".xctest")
            ? Bundle.main.bundleURL.deletingLastPathComponent()
            : Bundle.main.bundleURL
        return products.appendingPathComponent("junction")
    }

    /// Runs `junction` (or `program`) with `arguments`, in `directory` when given, with
    /// `environment` added to this process's environment.
    static func run(
        _ arguments: [String], in directory: URL? = nil, environment: [String: String] = [:],
        program: URL = executable
    ) throws -> Result {
        let process = Process()
        process.executableURL = program
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        if let directory { process.currentDirectoryURL = directory }
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        // Read before waiting so a full pipe cannot block the child.
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(
            status: process.terminationStatus,
            stdout: String(decoding: stdout, as: UTF8.self),
            stderr: String(decoding: stderr, as: UTF8.self))
    }

    /// A fixture's path, as the CLI will print it.
    static func fixture(_ name: String) throws -> String {
        try #require(Bundle.module.path(forResource: name, ofType: nil, inDirectory: "Fixtures"))
    }

    /// Writes `files` (relative path → text) into a new temporary folder and returns it.
    static func folder(_ files: [String: String]) throws -> String {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("junction-cli-\(UUID().uuidString)")
        for (path, text) in files {
            let url = root.appendingPathComponent(path)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: url, atomically: true, encoding: .utf8)
        }
        return root.path
    }

    /// The repository's root, for the example bundle.
    static let repositoryRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Compares `actual` with the golden file `Snapshots/NAME`; with
    /// `JUNCTION_UPDATE_SNAPSHOTS=1` in the environment, rewrites the golden file instead.
    static func expectSnapshot(_ actual: String, named name: String, sourceLocation: SourceLocation = #_sourceLocation)
        throws
    {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("Snapshots").appendingPathComponent(name)
        if ProcessInfo.processInfo.environment["JUNCTION_UPDATE_SNAPSHOTS"] == "1" {
            try actual.write(to: file, atomically: true, encoding: .utf8)
            return
        }
        let expected = try String(contentsOf: file, encoding: .utf8)
        #expect(
            actual == expected,
            "output differs from Snapshots/\(name); rerun with JUNCTION_UPDATE_SNAPSHOTS=1 to accept",
            sourceLocation: sourceLocation)
    }
}
