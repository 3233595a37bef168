import ArgumentParser
import Crypto
import Foundation
import JunctionArtifact

/// `junction bundle publish FILE --to DIR --channel NAME --key PATH`: put an artifact where
/// devices fetch it and point a channel at it.
struct BundlePublishCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "publish",
        abstract: "Publish a .jbundle into a static folder and point a channel at it with a signed pointer.",
        discussion: """
            Verifies FILE with the key's public half (it must be signed by the publishing key), \
            copies it to DIR/objects/<sha256>.jbundle (immutable: an object that exists with \
            other bytes is refused) and then writes DIR/channels/NAME.json, the signed pointer: \
            seq (default: the channel's current seq + 1, or 1; never lower or equal; at most \
            2^53 - 1; at most 1000 over the current one unless --allow-seq-jump), the epoch \
            (the key's: a key made with junction keygen --epoch N starts seq N afresh), the \
            artifact's sha256 and length, created (--created, SOURCE_DATE_EPOCH or now), \
            expires (default and latest: the artifact's expiry), the rollout percent (default \
            100) and salt (kept from the current pointer while it names the same artifact, so \
            raising the percent keeps every device that has it; else random), pin_embedded. \
            The current pointer must verify with the key or a --pubkey; --seq N --force \
            replaces one that does not. A rollback is publishing an older FILE again: it gets a new, higher seq. \
            Both files are written atomically, the object first. The pointer is dated (its \
            modification time, whence nginx's ETag) after every pointer the channel served, \
            recorded in DIR/channels/.NAME.served; keep that file with the channel. Exit status: 0 published, 1 \
            refused (the typed reason is printed), 2 when the options, the key or FILE cannot \
            be used.
            """
    )

    @Argument(help: ArgumentHelp("The artifact to publish.", valueName: "file"))
    var file: String

    @Option(name: .customLong("to"), help: ArgumentHelp("The folder a static host serves.", valueName: "dir"))
    var directory: String

    @Option(name: .long, help: ArgumentHelp("The channel: [a-z0-9][a-z0-9._-]{0,63}.", valueName: "name"))
    var channel: String

    @Option(name: .long, help: ArgumentHelp("The private key file that signed FILE.", valueName: "path"))
    var key: String

    @Option(name: .long, help: ArgumentHelp("The sequence number (default: current + 1).", valueName: "n"))
    var seq: String?

    @Option(name: .long, help: ArgumentHelp("The share of devices, 0 to 100 (default 100).", valueName: "percent"))
    var rollout: String?

    @Option(name: .long, help: ArgumentHelp("The rollout's salt: 1 to 64 of A-Z a-z 0-9 . _ -.", valueName: "text"))
    var salt: String?

    @Flag(name: .customLong("pin-embedded"), help: "Tell devices to fall back to their embedded bundle.")
    var pinEmbedded = false

    @Option(
        name: .long,
        help: ArgumentHelp(
            "When the pointer expires: a duration (7d, 12h, 90m) or an RFC 3339 time; not after the artifact's expiry.",
            valueName: "when"))
    var expires: String?

    @Option(name: .long, help: ArgumentHelp("When the pointer is published, RFC 3339.", valueName: "date"))
    var created: String?

    @Flag(name: .long, help: "With --seq, replace a current pointer that does not verify.")
    var force = false

    @Flag(
        name: .customLong("allow-seq-jump"),
        help: "Let --seq go more than \(Self.maximumSeqStep) past the channel's current seq.")
    var allowSeqJump = false

    @Option(
        name: .customLong("pubkey"),
        help: ArgumentHelp(
            "A public key the current pointer may be signed by (the key before a rotation); repeatable.",
            valueName: "path"))
    var previousKeys: [String] = []

    /// How far past the channel's current seq `--seq` may go without `--allow-seq-jump`: a
    /// device that takes a seq never takes a lower one of its epoch again, so a slip of the
    /// finger (a digit too many) would spend seqs no publish can get back.
    static let maximumSeqStep: UInt64 = 1_000

    func run() throws {
        let options: Options
        do { options = try parseOptions() } catch { throw error.report("bundle publish") }
        let signingKey: SigningKey
        do {
            signingKey = try KeyFile.readSigningKey(at: key)
        } catch {
            printError("bundle publish: \(error)")
            throw ExitCode(2)
        }
        let bytes = try ArtifactFile.readForCommand(file)
        // A device would check the artifact with this key; so does the publisher, first.
        let artifact: Artifact
        do {
            artifact = try Artifact(verifying: bytes, keyring: Keyring([signingKey.publicKey]), at: Date())
        } catch {
            print("\(file): refused: \(error)")
            throw ExitCode(1)
        }
        let sha256 = BundleBuildCommand.hex(SHA256.hash(data: bytes))

        var pointerExpires = artifact.header.expires
        if let expires {
            do {
                pointerExpires = try ShippingTime.expiry(expires, after: options.created, option: "--expires")
            } catch { throw error.report("bundle publish") }
            if pointerExpires > artifact.header.expires {
                throw UsageError(
                    "--expires \(ShippingTime.format(pointerExpires)) is later than the artifact's expiry "
                        + "\(ShippingTime.format(artifact.header.expires)); a pointer never outlives its artifact"
                ).report("bundle publish")
            }
        }

        let pointerPath = directory + "/channels/" + channel + ".json"
        let current = try currentPointer(
            at: pointerPath, keyring: Keyring([signingKey.publicKey] + options.previousKeys))
        let mark: ChannelServedMark
        do { mark = try ChannelServedMark(directory: directory, channel: channel) } catch {
            print("\(pointerPath): refused: \(error)")
            throw ExitCode(1)
        }
        let nextSeq = try Self.seq(
            after: current, requested: options.seq, epoch: signingKey.epoch, allowJump: allowSeqJump,
            path: pointerPath)
        // Same artifact, same salt: a higher percent then only adds devices.
        let keptSalt = current.flatMap { $0.artifactSHA256 == sha256 ? $0.rollout.salt : nil }
        let pointer: ChannelPointer
        do {
            pointer = try ChannelPointer(
                channel: channel, seq: nextSeq, epoch: signingKey.epoch, artifactSHA256: sha256,
                artifactLength: bytes.count,
                created: options.created, expires: pointerExpires,
                rollout: ChannelPointer.Rollout(
                    percent: options.percent, salt: options.salt ?? keptSalt ?? Self.randomSalt()),
                pinEmbedded: pinEmbedded, keyID: signingKey.keyID)
        } catch {
            throw UsageError("the pointer cannot be made: \(error)").report("bundle publish")
        }

        let objectPath = directory + "/objects/" + sha256 + ".jbundle"
        do {
            try FileManager.default.createDirectory(
                atPath: directory + "/objects", withIntermediateDirectories: true)
            try FileManager.default.createDirectory(
                atPath: directory + "/channels", withIntermediateDirectories: true)
        } catch {
            printError(
                "bundle publish: cannot create \(directory)/objects and \(directory)/channels: \(error.localizedDescription)"
            )
            throw ExitCode(1)
        }
        try storeObject(bytes, at: objectPath)
        let modified: Int
        do { modified = try mark.nextTime(replacing: pointerPath) } catch {
            print("\(pointerPath): refused: \(error)")
            throw ExitCode(1)
        }
        do {
            // The mark first: a pointer is never served dated past it, even if publish stops between the two.
            try mark.record(modified)
            try AtomicFile.write(try pointer.signed(with: signingKey), to: pointerPath, modified: modified)
        } catch {
            printError("bundle publish: \(error)")
            throw ExitCode(1)
        }
        let percent =
            pointer.rollout.percent == pointer.rollout.percent.rounded()
            ? String(Int(pointer.rollout.percent)) : String(pointer.rollout.percent)
        print(
            "\(pointerPath): \(pointer.epoch > 0 ? "epoch \(pointer.epoch), " : "")seq \(pointer.seq), channel \(channel) → \(objectPath), rollout \(percent)% "
                + "(salt \(pointer.rollout.salt)), expires \(ShippingTime.format(pointer.expires))"
                + (pinEmbedded ? ", pin embedded" : ""))
    }

    /// The new pointer's seq, in the signing key's `epoch`: `requested`, or the one after the
    /// channel's current seq — counted from 0 when `current` is of an earlier epoch (or
    /// there is none), since a higher epoch starts the seq afresh.
    /// - Throws: `ExitCode(1)`, the refusal printed: a current pointer of a later epoch, a
    ///   seq not above the current one, a jump past ``maximumSeqStep`` without `allowJump`,
    ///   or no seq left in the epoch.
    static func seq(
        after current: ChannelPointer?, requested: UInt64?, epoch: UInt64, allowJump: Bool, path: String
    ) throws -> UInt64 {
        if let current, current.epoch > epoch {
            print(
                "\(path): refused: the channel is at epoch \(current.epoch) (seq \(current.seq)), but the key signs "
                    + "epoch \(epoch): devices that took epoch \(current.epoch) never accept a pointer of an earlier "
                    + "one; publish with the key of epoch \(current.epoch) or later")
            throw ExitCode(1)
        }
        let base = current.flatMap { $0.epoch == epoch ? $0.seq : nil } ?? 0
        let inEpoch = epoch > 0 ? " of epoch \(epoch)" : ""
        guard let requested else {
            guard base < ChannelPointer.maximumSeq else {
                print(
                    "\(path): refused: the channel's seq is \(base), the largest there is\(inEpoch); devices that "
                        + "took it accept no other pointer of this epoch: make a key of epoch \(epoch + 1) "
                        + "(junction keygen --epoch \(epoch + 1)), add its public key to the apps, and publish with it "
                        + "(docs/artifacts.md, \"Seq epochs\")")
                throw ExitCode(1)
            }
            return base + 1
        }
        if requested <= base {
            print(
                "\(path): refused: --seq \(requested) is not greater than the channel's current seq "
                    + "\(base)\(inEpoch); a channel's seq only goes up (a rollback is a new, higher seq)")
            throw ExitCode(1)
        }
        if requested - base > maximumSeqStep && !allowJump {
            let now = current.map { "current seq \(base)\($0.epoch == epoch ? inEpoch : " (a new epoch starts at 0)")" }
            print(
                "\(path): refused: --seq \(requested) is \(requested - base) past the channel's "
                    + "\(now ?? "seq 0 (it has no pointer yet)"), more than the \(maximumSeqStep) a publish may jump: "
                    + "a device that takes it never again accepts a seq of \(requested) or lower\(inEpoch), "
                    + "leaving \(ChannelPointer.maximumSeq - requested) for every publish after it; give "
                    + "--allow-seq-jump if that is what you mean")
            throw ExitCode(1)
        }
        return requested
    }

    /// The options that need more than ArgumentParser checks, parsed.
    private struct Options {
        var previousKeys: [VerificationKey]
        var seq: UInt64?
        var percent: Double
        var salt: String?
        var created: Date
    }

    private func parseOptions() throws(UsageError) -> Options {
        guard ChannelPointer.isChannelName(channel) else {
            throw UsageError(
                "--channel \"\(channel.prefix(80))\" is not a channel name: 1 to 64 of a-z 0-9 . _ -, starting with a letter or digit"
            )
        }
        var number: UInt64?
        if let seq {
            guard (1...20).contains(seq.utf8.count), seq.utf8.allSatisfy({ (0x30...0x39).contains($0) }),
                let value = UInt64(seq), (1...ChannelPointer.maximumSeq).contains(value)
            else {
                throw UsageError(
                    "--seq \"\(seq.prefix(40))\" is not a whole number from 1 to \(ChannelPointer.maximumSeq) "
                        + "(2^53 - 1, the largest a pointer carries)")
            }
            number = value
        }
        var previousKeys: [VerificationKey] = []
        for path in self.previousKeys {
            do { previousKeys.append(try KeyFile.readVerificationKey(at: path)) } catch {
                throw UsageError("--pubkey \(path): \(error)")
            }
        }
        if force && seq == nil {
            throw UsageError("--force replaces a current pointer that does not verify, and needs an explicit --seq")
        }
        var percent = 100.0
        if let rollout {
            guard rollout.wholeMatch(of: /[0-9]{1,3}(\.[0-9]{1,4})?/) != nil, let value = Double(rollout),
                value <= 100
            else { throw UsageError("--rollout \"\(rollout.prefix(40))\" is not a percentage from 0 to 100 (12.5)") }
            percent = value
        }
        if let salt, (try? ChannelPointer.Rollout(percent: percent, salt: salt)) == nil {
            throw UsageError("--salt \"\(salt.prefix(80))\" is not 1 to 64 of A-Z a-z 0-9 . _ -")
        }
        let created = try ShippingTime.created(
            option: created, environment: ProcessInfo.processInfo.environment, now: Date())
        return Options(previousKeys: previousKeys, seq: number, percent: percent, salt: salt, created: created)
    }

    /// The channel's current pointer, verified with `keyring`; `nil` when there is none, or
    /// when it does not verify and `--seq --force` says to replace it.
    private func currentPointer(at path: String, keyring: Keyring) throws -> ChannelPointer? {
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        guard let handle = FileHandle(forReadingAtPath: path) else {
            printError("bundle publish: cannot read \(path)")
            throw ExitCode(2)
        }
        defer { try? handle.close() }
        // One byte past the cap tells an oversize pointer without reading the rest.
        guard let data = try? handle.read(upToCount: ChannelPointer.maximumBytes + 1) else {
            printError("bundle publish: cannot read \(path)")
            throw ExitCode(2)
        }
        let refusal: String
        do {
            let pointer = try ChannelPointer(verifying: Array(data), keyring: keyring)
            if pointer.channel == channel { return pointer }
            refusal = "it names channel \"\(pointer.channel)\", not \"\(channel)\""
        } catch {
            refusal = "\(error)"
        }
        if force {
            printError("\(path): replacing a pointer that does not verify (--force): \(refusal)")
            return nil
        }
        print(
            "\(path): refused: the current pointer does not verify: \(refusal); find out who wrote it, "
                + "then give --seq N --force to replace it")
        throw ExitCode(1)
    }

    /// Writes the object, or keeps it when it exists with the same bytes.
    private func storeObject(_ bytes: [UInt8], at path: String) throws {
        if let attributes = try? FileManager.default.attributesOfItem(atPath: path) {
            let existing: Data?
            if attributes[.type] as? FileAttributeType == .typeRegular, let handle = FileHandle(forReadingAtPath: path)
            {
                // One byte past the artifact's length tells a longer object without reading all of it.
                existing = try? handle.read(upToCount: bytes.count + 1)
                try? handle.close()
            } else {
                existing = nil
            }
            if existing.map(Array.init) == bytes { return }
            print(
                "\(path): refused: the object exists with other bytes than \(file), whose SHA-256 names it; "
                    + "objects are immutable, so it was tampered with: find out how, remove it, and publish again")
            throw ExitCode(1)
        }
        do {
            try AtomicFile.write(bytes, to: path)
        } catch {
            printError("bundle publish: \(error)")
            throw ExitCode(1)
        }
    }

    /// 16 random lowercase hex digits.
    private static func randomSalt() -> String {
        var generator = SystemRandomNumberGenerator()
        return BundleBuildCommand.hex((0..<8).map { _ in UInt8.random(in: 0...255, using: &generator) })
    }
}
