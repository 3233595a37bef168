import ArgumentParser
import Crypto
import Foundation
import Junction
import JunctionArtifact

/// `junction bundle build DIR --key PATH -o FILE`: test, check, compile and sign a bundle folder.
struct BundleBuildCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "build",
        abstract: "Build a signed .jbundle from a bundle folder, after its tests and check pass.",
        discussion: """
            Loads the folder as junction test does, runs its rule tests and junction check (with \
            --app FILE, against those app versions too), and refuses to build when a test fails or \
            check finds an error (with --strict, a warning), \
            printing what failed as those commands do. Then writes FILE: the manifest, routes and \
            tests as canonical JSON and the Lua sources, signed with the private key. The same \
            folder and --created give the same bytes. --created is an RFC 3339 time; without it, \
            SOURCE_DATE_EPOCH (seconds), else now. --expires is a duration after --created (30d, \
            12h, 90m; default 30d) or an RFC 3339 time. Exit status: 0 built, 1 refused (a test, \
            check, or what an artifact cannot hold), 2 when the key, the folder, the dates, an --app file or \
            SOURCE_DATE_EPOCH cannot be used, 64 for a value an option does not take.
            """
    )

    @Argument(help: ArgumentHelp("The bundle folder.", valueName: "dir"))
    var directory: String

    @Option(name: .long, help: ArgumentHelp("The private key file (from junction keygen).", valueName: "path"))
    var key: String

    @Option(
        name: [.customShort("o"), .customLong("output")],
        help: ArgumentHelp("The artifact to write.", valueName: "file"))
    var output: String

    @Option(
        name: .long,
        help: ArgumentHelp(
            "When it stops being valid: a duration (30d, 12h, 90m; default 30d) or an RFC 3339 time.",
            valueName: "when"),
        transform: ExpiryArgument.init(parsing:))
    var expires = ExpiryArgument.after(.days(30))

    @Option(
        name: .long, help: ArgumentHelp("When it was built, RFC 3339 (pins the bytes).", valueName: "date"),
        transform: DateArgument.init(parsing:))
    var created: DateArgument?

    @Flag(name: .long, help: "Refuse on check warnings too.")
    var strict = false

    @Option(
        name: .long,
        help: ArgumentHelp(
            "The capabilities of an app version that may take the bundle, as for junction check --app; repeatable.",
            valueName: "file"))
    var app: [String] = []

    func run() throws {
        let createdDate: Date
        let expiresDate: Date
        do {
            createdDate = try ShippingTime.created(
                option: created, environment: ProcessInfo.processInfo.environment, now: Date())
            expiresDate = try expires.date(after: createdDate, option: "--expires")
        } catch {
            throw error.report("bundle build")
        }
        let signingKey: SigningKey
        do {
            signingKey = try KeyFile.readSigningKey(at: key)
        } catch {
            printError("bundle build: \(error)")
            throw ExitCode(2)
        }
        let apps = try CheckCommand.apps(app, command: "bundle build")

        let loaded = LoadedBundle.load(directory, showLogs: false)
        let tests = TestReport.run(loaded, directory: directory, coverage: false, filter: nil)
        guard case .success(let bundle) = loaded else {
            tests.text(verbose: false).forEach(printError)
            throw ExitCode(2)
        }
        let check = CheckReport.run(loaded, directory: directory, apps: apps)
        let checkRefuses = check.errors > 0 || strict && check.warnings > 0
        if tests.failed > 0 { tests.text(verbose: false).forEach { print($0) } }
        if checkRefuses {
            check.text.forEach { print($0) }
        } else if check.warnings > 0 || !check.accepted.isEmpty {
            check.text.forEach(printError)  // what a reviewer of the build should see
        }
        if tests.failed > 0 || checkRefuses {
            var reasons: [String] = []
            if tests.failed > 0 { reasons.append(tests.failed == 1 ? "1 test failed" : "\(tests.failed) tests failed") }
            if checkRefuses {
                reasons.append(check.errors > 0 ? "check found errors" : "check found warnings (--strict)")
            }
            printError("\(directory): not built: \(reasons.joined(separator: ", ")); \(output) was not written")
            throw ExitCode(1)
        }

        let bytes: [UInt8]
        do {
            bytes = try Self.artifact(
                of: bundle.bundle, created: createdDate, expires: expiresDate, key: signingKey)
        } catch {
            printError("\(directory): not built: \(error)")
            throw ExitCode(1)
        }
        do {
            try AtomicFile.write(bytes, to: output)
        } catch {
            printError("bundle build: \(error)")
            throw ExitCode(1)
        }
        let manifest = bundle.bundle.manifest
        let count = tests.outcomes.count == 1 ? "1 test" : "\(tests.outcomes.count) tests"
        print(
            "\(output): \(manifest.name) \(manifest.version), key \(signingKey.keyID), \(bytes.count) bytes, "
                + "sha256 \(Self.hex(SHA256.hash(data: bytes))), \(count) passed")
    }

    /// The signed artifact of `bundle`: its canonical JSON parts and Lua sources.
    static func artifact(of bundle: RuleBundle, created: Date, expires: Date, key: SigningKey) throws -> [UInt8] {
        let parts = try bundle.canonicalJSON()
        var builder = ArtifactBuilder(
            name: bundle.manifest.name, version: bundle.manifest.version.description, created: created,
            expires: expires, minimumHostVersion: bundle.manifest.minimumHostVersion?.description)
        builder.add(path: "manifest.json", kind: .manifest, bytes: parts.manifest)
        builder.add(path: "routes.json", kind: .routes, bytes: parts.routes)
        builder.add(path: "tests.json", kind: .tests, bytes: parts.tests)
        for source in bundle.sources { builder.add(path: source.name, kind: .lua, bytes: Array(source.text.utf8)) }
        return try builder.build(signedWith: key)
    }

    /// Lowercase hex.
    static func hex(_ digest: some Sequence<UInt8>) -> String {
        digest.map { String(format: "%02x", $0) }.joined()
    }
}
