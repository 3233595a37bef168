import Crypto
import Foundation
import JunctionArtifact
import Testing

// Serialized: each build loads and tests a bundle in a process of its own, and two cores are shared.
@Suite(.serialized) struct BundleBuildCommandTests {
    static let example = CLIRunner.repositoryRoot.appendingPathComponent("rules/example").path

    @Test func buildsAnArtifactThatVerifiesAndWhoseInspectionCountsItsTests() throws {
        let folder = try ShippingFixtures.folder()
        let key = try ShippingFixtures.writeKey(in: folder)
        let output = folder + "/example.jbundle"
        let created = ShippingFixtures.recent
        let result = try CLIRunner.run([
            "bundle", "build", Self.example, "--key", key, "-o", output, "--created", created,
        ])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        let bytes = try ShippingFixtures.bytes(output)
        let sha256 = SHA256.hash(data: bytes).map { String(format: "%02x", $0) }.joined()
        #expect(
            result.stdout
                == "\(output): example 3, key \(ShippingFixtures.key.keyID), \(bytes.count) bytes, sha256 \(sha256), 36 tests passed\n"
        )
        #expect(result.stderr == "")
        #expect(ShippingFixtures.listing(folder) == ["example.jbundle", "signing", "signing.pub"])

        let verify = try CLIRunner.run(["bundle", "verify", output, "--pubkey", key + ".pub"])
        #expect(verify.status == 0)
        let expires = try Date(created, strategy: .iso8601).addingTimeInterval(30 * 86_400)
        #expect(
            verify.stdout
                == "\(output): ok, example 3, 7 members, signed by \(ShippingFixtures.key.keyID), expires \(expires.formatted(.iso8601))\n"
        )
        let inspect = try CLIRunner.run(["bundle", "inspect", output])
        #expect(inspect.status == 0)
        #expect(inspect.stdout.contains("\n  minimum host version 5.0.0\n"))
        #expect(inspect.stdout.contains("\n  tests     36\n"))
        for member in [
            "fallback.lua", "interceptors.lua", "manifest.json", "policies.lua", "redirects.lua", "routes.json",
            "tests.json",
        ] {
            #expect(inspect.stdout.contains("  \(member)\n"), "\(member) missing")
        }
        let json = try CLIRunner.run(["bundle", "inspect", output, "--json"])
        #expect(json.stdout.contains(#""signature": "not checked", "tests": 36, "members": ["#))
    }

    @Test func inspectCannotCountTestsWhoseHashDiffers() throws {
        let folder = try ShippingFixtures.folder()
        let output = try ShippingFixtures.buildExample(in: folder)
        var bytes = try ShippingFixtures.bytes(output)
        bytes[bytes.count - 64 - 2] ^= 1  // inside tests.json, the last member
        try Data(bytes).write(to: URL(fileURLWithPath: output))
        let inspect = try CLIRunner.run(["bundle", "inspect", output])
        #expect(inspect.status == 1)
        #expect(inspect.stdout.contains("\n  tests     unreadable\n"))
        #expect(inspect.stdout.contains("  tests.json  HASH MISMATCH\n"))
        let json = try CLIRunner.run(["bundle", "inspect", output, "--json"])
        #expect(json.stdout.contains(#""tests": null"#))
    }

    @Test func theSameFolderAndCreatedGiveTheSameBytesAndOneChangedByteChangesThem() throws {
        let created = "2026-05-31T12:00:00Z"
        let first = try ShippingFixtures.folder()
        let key = try ShippingFixtures.writeKey(in: first)
        // Two copies at different paths: nothing of where a bundle lies goes into its artifact.
        let copies = [try ShippingFixtures.exampleCopy(), try ShippingFixtures.exampleCopy()]
        var builds: [[UInt8]] = []
        for (index, copy) in copies.enumerated() {
            let output = first + "/build\(index).jbundle"
            let result = try CLIRunner.run(["bundle", "build", copy, "--key", key, "-o", output, "--created", created])
            #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
            builds.append(try ShippingFixtures.unsigned(output))
        }
        #expect(builds[0] == builds[1])
        #expect(builds[0].count > 1_000)

        let lua = copies[1] + "/redirects.lua"
        var source = try ShippingFixtures.bytes(lua)
        let space = try #require(source.firstIndex(of: 0x20))
        source[space] = 0x09  // one space becomes a tab: the rules mean the same, the bytes differ
        try Data(source).write(to: URL(fileURLWithPath: lua))
        let changed = first + "/changed.jbundle"
        let result = try CLIRunner.run([
            "bundle", "build", copies[1], "--key", key, "-o", changed, "--created", created,
        ])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        let changedBytes = try ShippingFixtures.unsigned(changed)
        #expect(changedBytes.count == builds[0].count)
        #expect(changedBytes != builds[0])
    }

    @Test func sourceDateEpochPinsCreatedAndCreatedWinsOverIt() throws {
        let folder = try ShippingFixtures.folder()
        let key = try ShippingFixtures.writeKey(in: folder)
        let output = folder + "/epoch.jbundle"
        let result = try CLIRunner.run(
            ["bundle", "build", Self.example, "--key", key, "-o", output, "--expires", "12h"],
            environment: ["SOURCE_DATE_EPOCH": "1780228800"])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        let inspect = try CLIRunner.run(["bundle", "inspect", output])
        #expect(inspect.stdout.contains("\n  created   2026-05-31T12:00:00Z\n  expires   2026-06-01T00:00:00Z\n"))

        let pinned = try CLIRunner.run(
            [
                "bundle", "build", Self.example, "--key", key, "-o", output, "--created", "2026-06-01T10:00:00+02:00",
                "--expires", "2026-06-02T00:00:00Z",
            ],
            environment: ["SOURCE_DATE_EPOCH": "1780228800"])
        #expect(pinned.status == 0)
        let again = try CLIRunner.run(["bundle", "inspect", output])
        #expect(again.stdout.contains("\n  created   2026-06-01T08:00:00Z\n  expires   2026-06-02T00:00:00Z\n"))
    }

    // ArgumentParser reads the values: a refused one is its usage error, with the reason.
    @Test(arguments: [
        (
            ["--expires", "0d"],
            "The value '0d' is invalid for '--expires <when>': neither a duration (30d, 12h, 90m) nor an RFC 3339 date (2026-06-30T00:00:00Z)"
        ),
        (
            ["--expires", "30w"],
            "The value '30w' is invalid for '--expires <when>': neither a duration (30d, 12h, 90m) nor an RFC 3339 date (2026-06-30T00:00:00Z)"
        ),
        (
            ["--expires=-5d"],
            "The value '-5d' is invalid for '--expires <when>': neither a duration (30d, 12h, 90m) nor an RFC 3339 date (2026-06-30T00:00:00Z)"
        ),
        (
            ["--expires", "3651d"],
            "The value '3651d' is invalid for '--expires <when>': longer than 3650d (ten years); give a shorter one"
        ),
        (
            ["--created", "2026-02-30T12:00:00Z"],
            "The value '2026-02-30T12:00:00Z' is invalid for '--created <date>': not an RFC 3339 date and time in whole seconds, like 2026-06-30T00:00:00Z"
        ),
        (
            ["--created", "2026-05-31 12:00:00"],
            "The value '2026-05-31 12:00:00' is invalid for '--created <date>': not an RFC 3339 date and time in whole seconds, like 2026-06-30T00:00:00Z"
        ),
        (
            ["--created", "2026-05-31T12:00:00.5Z"],
            "The value '2026-05-31T12:00:00.5Z' is invalid for '--created <date>': not an RFC 3339 date and time in whole seconds, like 2026-06-30T00:00:00Z"
        ),
        (
            ["--created", "1969-12-31T23:59:59Z"],
            "The value '1969-12-31T23:59:59Z' is invalid for '--created <date>': not an RFC 3339 date and time in whole seconds, like 2026-06-30T00:00:00Z"
        ),
    ])
    func aBadDateOrDurationIsAUsageErrorAndWritesNothing(options: [String], message: String) throws {
        let folder = try ShippingFixtures.folder()
        let key = try ShippingFixtures.writeKey(in: folder)
        let result = try CLIRunner.run(
            ["bundle", "build", Self.example, "--key", key, "-o", folder + "/x.jbundle"] + options)
        #expect(result.status == 64)
        #expect(result.stdout == "")
        #expect(result.errorLine == "Error: \(message)")
        #expect(ShippingFixtures.listing(folder) == ["signing", "signing.pub"])
    }

    // Whether --expires comes after the creation time is known only once that time is
    // (--created, SOURCE_DATE_EPOCH or now): the command's usage error.
    @Test(arguments: [
        (
            ["--created", "2026-05-31T12:00:00Z", "--expires", "2026-05-31T12:00:00Z"],
            "--expires 2026-05-31T12:00:00Z is not after the creation time 2026-05-31T12:00:00Z; an artifact or pointer must be valid for a while"
        ),
        (
            ["--created", "2026-05-31T12:00:00Z", "--expires", "2026-01-01T00:00:00Z"],
            "--expires 2026-01-01T00:00:00Z is not after the creation time 2026-05-31T12:00:00Z; an artifact or pointer must be valid for a while"
        ),
    ])
    func anExpiryNotAfterTheCreationTimeIsAUsageErrorAndWritesNothing(options: [String], message: String) throws {
        let folder = try ShippingFixtures.folder()
        let key = try ShippingFixtures.writeKey(in: folder)
        let result = try CLIRunner.run(
            ["bundle", "build", Self.example, "--key", key, "-o", folder + "/x.jbundle"] + options)
        #expect(result.status == 2)
        #expect(result.stdout == "")
        #expect(result.stderr == "bundle build: error: \(message)\n")
        #expect(ShippingFixtures.listing(folder) == ["signing", "signing.pub"])
    }

    @Test(arguments: ["1.5", "-1", "12345678901234", "now", ""])
    func aSourceDateEpochThatIsNotWholeSecondsIsAUsageError(epoch: String) throws {
        let folder = try ShippingFixtures.folder()
        let key = try ShippingFixtures.writeKey(in: folder)
        let result = try CLIRunner.run(
            ["bundle", "build", Self.example, "--key", key, "-o", folder + "/x.jbundle"],
            environment: ["SOURCE_DATE_EPOCH": epoch])
        #expect(result.status == 2)
        #expect(
            result.stderr
                == "bundle build: error: SOURCE_DATE_EPOCH \"\(epoch)\" is not a whole number of seconds since 1970 (up to the year 9999)\n"
        )
    }

    @Test func aKeyFileThatIsMissingOrPublicExitsTwo() throws {
        let folder = try ShippingFixtures.folder()
        let key = try ShippingFixtures.writeKey(in: folder)
        let output = folder + "/x.jbundle"
        let missing = try CLIRunner.run(["bundle", "build", Self.example, "--key", folder + "/none", "-o", output])
        #expect(missing.status == 2)
        #expect(missing.stderr == "bundle build: io: cannot read \(folder)/none\n")
        let publicKey = try CLIRunner.run(["bundle", "build", Self.example, "--key", key + ".pub", "-o", output])
        #expect(publicKey.status == 2)
        #expect(
            publicKey.stderr
                == "bundle build: badKeyFile: \(key).pub is not a private key file: expected one line \"junction-ed25519-private <base64 of 32 bytes>\"\n"
        )
        #expect(!FileManager.default.fileExists(atPath: output))
    }

    @Test func aFailingTestRefusesTheBuildPrintingWhatJunctionTestPrints() throws {
        let fixtures = URL(fileURLWithPath: try CLIRunner.fixture("test-failures")).deletingLastPathComponent()
        let folder = try ShippingFixtures.folder()
        let key = try ShippingFixtures.writeKey(in: folder)
        let output = folder + "/x.jbundle"
        let build = try CLIRunner.run(["bundle", "build", "test-failures", "--key", key, "-o", output], in: fixtures)
        let test = try CLIRunner.run(["test", "test-failures"], in: fixtures)
        #expect(build.status == 1)
        let time = /\(\d+\.\d\d s\)/
        #expect(build.stdout.replacing(time, with: "") == test.stdout.replacing(time, with: ""))
        #expect(build.stdout.contains("FAIL"))
        // The check warns of the login gate's bug the failing tests show.
        #expect(
            build.stderr
                == "test-failures/rules.lua:11:10: warning: ctx.user may be absent (a guest has no user) and this "
                + "function reads its fields without testing it, so the rule fails for those requests and its "
                + "on_error decides — test it first: `if not ctx.user then … end`, or `ctx.user and ctx.user.…` "
                + "[unguarded-context-read]\ntest-failures: 0 errors, 1 warning\n"
                + "test-failures: not built: 4 tests failed; \(output) was not written\n")
        #expect(!FileManager.default.fileExists(atPath: output))
    }

    @Test func aCheckErrorRefusesTheBuildPrintingWhatJunctionCheckPrints() throws {
        let bundle = try CLIRunner.fixture("check-cycle")
        let folder = try ShippingFixtures.folder()
        let key = try ShippingFixtures.writeKey(in: folder)
        let output = folder + "/x.jbundle"
        let build = try CLIRunner.run(["bundle", "build", bundle, "--key", key, "-o", output])
        let check = try CLIRunner.run(["check", bundle])
        #expect(build.status == 1)
        #expect(build.stdout == check.stdout)
        #expect(build.stdout.contains("[redirect-cycle]"))
        #expect(build.stderr == "\(bundle): not built: check found errors; \(output) was not written\n")
        #expect(!FileManager.default.fileExists(atPath: output))
    }

    /// `--app` runs the capability check `check --app` runs: an app that loads the bundle
    /// and lacks a page it leads to refuses the build; one that has everything does not.
    @Test func anAppThatCannotOpenWhatTheBundleLeadsToRefusesTheBuild() throws {
        let bundle = try CLIRunner.fixture("check-apps")
        let (old, new) = (try CLIRunner.fixture("apps/app-6.0.json"), try CLIRunner.fixture("apps/app-6.1.json"))
        let folder = try ShippingFixtures.folder()
        let key = try ShippingFixtures.writeKey(in: folder)
        let output = folder + "/x.jbundle"
        let build = try CLIRunner.run(["bundle", "build", bundle, "--key", key, "-o", output, "--app", old])
        let check = try CLIRunner.run(["check", bundle, "--app", old])
        #expect(build.status == 1)
        #expect(build.stdout == check.stdout)
        #expect(build.stdout.contains("[target-missing]"))
        #expect(build.stdout.contains("send those versions elsewhere with an interceptor of the route"))
        #expect(!FileManager.default.fileExists(atPath: output))
        let built = try CLIRunner.run(["bundle", "build", bundle, "--key", key, "-o", output, "--app", new])
        #expect(built.status == 0, "\(built.stdout)\(built.stderr)")
        let unreadable = try CLIRunner.run([
            "bundle", "build", bundle, "--key", key, "-o", output, "--app", "nope.json",
        ])
        #expect(unreadable.status == 2)
    }

    @Test func warningsGoToStandardErrorUnlessStrictRefusesThem() throws {
        let bundle = try CLIRunner.fixture("check-warnings")
        let folder = try ShippingFixtures.folder()
        let key = try ShippingFixtures.writeKey(in: folder)
        let output = folder + "/x.jbundle"
        let check = try CLIRunner.run(["check", bundle])
        let lenient = try CLIRunner.run(["bundle", "build", bundle, "--key", key, "-o", output])
        #expect(lenient.status == 0)
        #expect(lenient.stderr == check.stdout)
        #expect(lenient.stdout.hasPrefix("\(output): check-warnings 1, key \(ShippingFixtures.key.keyID), "))
        #expect(lenient.stdout.hasSuffix(", 0 tests passed\n"))
        try FileManager.default.removeItem(atPath: output)
        let strict = try CLIRunner.run(["bundle", "build", bundle, "--key", key, "-o", output, "--strict"])
        #expect(strict.status == 1)
        #expect(strict.stdout == check.stdout)
        #expect(strict.stderr == "\(bundle): not built: check found warnings (--strict); \(output) was not written\n")
        #expect(!FileManager.default.fileExists(atPath: output))
    }

    @Test func aFolderThatIsNotABundlePrintsTheLoadersDiagnosticsAndExitsTwo() throws {
        let bundle = try CLIRunner.fixture("check-broken")
        let folder = try ShippingFixtures.folder()
        let key = try ShippingFixtures.writeKey(in: folder)
        let result = try CLIRunner.run(["bundle", "build", bundle, "--key", key, "-o", folder + "/x.jbundle"])
        #expect(result.status == 2)
        #expect(result.stdout == "")
        #expect(
            result.stderr == """
                \(bundle): the bundle does not load
                  \(bundle)/rules.lua:2:1: error: unexpected symbol near <eof> [syntax]

                """)
        #expect(ShippingFixtures.listing(folder) == ["signing", "signing.pub"])
    }

    @Test func aLuaFileNameAnArtifactCannotHoldRefusesTheBuild() throws {
        let bundle = try CLIRunner.folder([
            "manifest.yaml": "name: spaced\nversion: 1\n",
            "routes.yaml": "routes:\n  - { name: home, pattern: \"myapp://home\" }\n",
            "my rules.lua": "-- nothing yet\n",
        ])
        let folder = try ShippingFixtures.folder()
        let key = try ShippingFixtures.writeKey(in: folder)
        let result = try CLIRunner.run(["bundle", "build", bundle, "--key", key, "-o", folder + "/x.jbundle"])
        #expect(result.status == 1)
        #expect(result.stdout == "")
        #expect(
            result.stderr
                == "\(bundle): not built: badPath: member path \"my rules.lua\" is not name.lua at the top level (letters, digits, _, - and .), the path of a lua member\n"
        )
        #expect(ShippingFixtures.listing(folder) == ["signing", "signing.pub"])
    }

    @Test func anOutputThatCannotBeWrittenLeavesNothingBehind() throws {
        let folder = try ShippingFixtures.folder()
        let key = try ShippingFixtures.writeKey(in: folder)
        let output = folder + "/missing/x.jbundle"
        let result = try CLIRunner.run(["bundle", "build", Self.example, "--key", key, "-o", output])
        #expect(result.status == 1)
        #expect(result.stderr == "bundle build: cannot write \(output): No such file or directory\n")
        #expect(ShippingFixtures.listing(folder) == ["signing", "signing.pub"])
    }

    @Test func rebuildingReplacesTheFileWhole() throws {
        let folder = try ShippingFixtures.folder()
        let output = try ShippingFixtures.buildExample(in: folder, created: "2026-05-31T12:00:00Z", expires: "3650d")
        try Data("an old, longer file that the build must replace entirely".utf8).write(
            to: URL(fileURLWithPath: output))
        let rebuilt = try ShippingFixtures.buildExample(in: folder, created: "2026-05-31T12:00:00Z", expires: "3650d")
        let verify = try CLIRunner.run(["bundle", "inspect", rebuilt])
        #expect(verify.status == 0)
        #expect(ShippingFixtures.listing(folder).filter { $0.contains("tmp") } == [])
    }
}
