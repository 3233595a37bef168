import Foundation
import JunctionArtifact

/// Keys and bundle folders for the `bundle build` and `bundle publish` tests.
enum ShippingFixtures {
    /// The signing key the tests build and publish with.
    static let key = try! SigningKey(seed: [UInt8](repeating: 9, count: 32))

    /// A second key, which the publishing key must not take for its own.
    static let stranger = try! SigningKey(seed: [UInt8](repeating: 11, count: 32))

    /// Builds of `rules/example`, made once for every test that only needs an artifact
    /// (loading a bundle is the slow part): by ``key`` valid 30 days and 20 days, and by
    /// ``stranger``. Tests copy them before changing them.
    static var builds: (thirtyDays: String, twentyDays: String, stranger: String) {
        get throws { try sharedBuilds.get() }
    }

    private static let sharedBuilds = Result { () throws -> (String, String, String) in
        let shared = try folder()
        return (
            try buildExample(in: shared, named: "30d.jbundle"),
            try buildExample(in: shared, named: "20d.jbundle", expires: "20d"),
            try buildExample(in: shared, named: "stranger.jbundle", key: stranger)
        )
    }

    /// A copy of `artifact` as `FOLDER/NAME`.
    static func copy(_ artifact: String, to folder: String, named name: String) throws -> String {
        try FileManager.default.copyItem(atPath: artifact, toPath: folder + "/" + name)
        return folder + "/" + name
    }

    /// A new empty temporary folder.
    static func folder() throws -> String {
        let folder = try CLIRunner.folder([:])
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        return folder
    }

    /// Writes `key` as `FOLDER/NAME` and `FOLDER/NAME.pub`; returns the private key's path.
    static func writeKey(_ key: SigningKey = key, in folder: String, named name: String = "signing") throws -> String {
        try KeyFile.write(key, to: folder + "/" + name)
        return folder + "/" + name
    }

    /// A copy of `rules/example` in a new temporary folder.
    static func exampleCopy() throws -> String {
        let copy = try folder() + "/example"
        try FileManager.default.copyItem(
            at: CLIRunner.repositoryRoot.appendingPathComponent("rules/example"), to: URL(fileURLWithPath: copy))
        return copy
    }

    /// A time a minute ago in whole seconds, as RFC 3339: what a fresh build is created at.
    static var recent: String {
        Date(timeIntervalSince1970: (Date().timeIntervalSince1970 - 60).rounded(.down)).formatted(.iso8601)
    }

    /// Builds `rules/example` with `key` into `FOLDER/NAME`; returns the artifact's path.
    static func buildExample(
        in folder: String, named name: String = "example.jbundle", created: String = recent, expires: String = "30d",
        key: SigningKey = key
    ) throws -> String {
        let keyPath = folder + "/build-" + key.keyID
        if !FileManager.default.fileExists(atPath: keyPath) { try KeyFile.write(key, to: keyPath) }
        let output = folder + "/" + name
        let result = try CLIRunner.run([
            "bundle", "build", CLIRunner.repositoryRoot.appendingPathComponent("rules/example").path, "--key", keyPath,
            "-o", output, "--created", created, "--expires", expires,
        ])
        guard result.status == 0 else { throw BuildFailure(result: result) }
        return output
    }

    /// A build that did not succeed.
    struct BuildFailure: Error {
        let result: CLIRunner.Result
    }

    /// The bytes of the file at `path`.
    static func bytes(_ path: String) throws -> [UInt8] {
        Array(try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    /// The bytes of an artifact before its 64-byte signature.
    static func unsigned(_ path: String) throws -> [UInt8] {
        Array(try bytes(path).dropLast(64))
    }

    /// The entries of a folder, sorted; empty when it does not exist.
    static func listing(_ path: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted()
    }
}
