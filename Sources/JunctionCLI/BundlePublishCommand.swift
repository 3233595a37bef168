import ArgumentParser
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
            refused (the typed reason is printed), 2 when the key, a --pubkey, FILE, the dates or \
            SOURCE_DATE_EPOCH cannot be used, 64 for a value an option does not take or options \
            that do not go together.
            """
    )

    @Argument(help: ArgumentHelp("The artifact to publish.", valueName: "file"))
    var file: String

    @Option(name: .customLong("to"), help: ArgumentHelp("The folder a static host serves.", valueName: "dir"))
    var directory: String

    @Option(
        name: .long, help: ArgumentHelp("The channel: [a-z0-9][a-z0-9._-]{0,63}.", valueName: "name"),
        transform: ChannelNameArgument.init(parsing:))
    var channel: ChannelNameArgument

    @Option(name: .long, help: ArgumentHelp("The private key file that signed FILE.", valueName: "path"))
    var key: String

    @Option(
        name: .long, help: ArgumentHelp("The sequence number (default: current + 1).", valueName: "n"),
        transform: SeqArgument.init(parsing:))
    var seq: SeqArgument?

    @Option(
        name: .long, help: ArgumentHelp("The share of devices, 0 to 100 (default 100).", valueName: "percent"),
        transform: PercentArgument.init(parsing:))
    var rollout: PercentArgument?

    @Option(
        name: .long, help: ArgumentHelp("The rollout's salt: 1 to 64 of A-Z a-z 0-9 . _ -.", valueName: "text"),
        transform: SaltArgument.init(parsing:))
    var salt: SaltArgument?

    @Flag(name: .customLong("pin-embedded"), help: "Tell devices to fall back to their embedded bundle.")
    var pinEmbedded = false

    @Option(
        name: .long,
        help: ArgumentHelp(
            "When the pointer expires: a duration (7d, 12h, 90m) or an RFC 3339 time; not after the artifact's expiry.",
            valueName: "when"),
        transform: ExpiryArgument.init(parsing:))
    var expires: ExpiryArgument?

    @Option(
        name: .long, help: ArgumentHelp("When the pointer is published, RFC 3339.", valueName: "date"),
        transform: DateArgument.init(parsing:))
    var created: DateArgument?

    @Flag(name: .long, help: "With --seq, replace a current pointer that does not verify.")
    var force = false

    @Flag(
        name: .customLong("allow-seq-jump"),
        help: "Let --seq go more than \(ChannelPublisher.maximumSeqStep) past the channel's current seq.")
    var allowSeqJump = false

    @Option(
        name: .customLong("pubkey"),
        help: ArgumentHelp(
            "A public key the current pointer may be signed by (the key before a rotation); repeatable.",
            valueName: "path"))
    var previousKeys: [String] = []

    func validate() throws {
        if force && seq == nil {
            throw ValidationError(
                "--force replaces a current pointer that does not verify, and needs an explicit --seq")
        }
    }

    func run() throws {
        let (created, expires) = try dates()
        let (signingKey, previousKeys) = try keys()
        let artifact = try verifiedArtifact(key: signingKey)

        let publisher = ChannelPublisher(channel: channel.name, key: signingKey, previousKeys: previousKeys)
        let pointerPath = directory + "/" + publisher.pointerPath
        let objectPath = directory + "/" + ChannelPublisher.objectPath(for: artifact)
        let site = ChannelPublisher.Site(
            pointer: try Self.pointer(at: pointerPath),
            object: Self.object(at: objectPath, length: artifact.bytes.count))
        let options = ChannelPublisher.Options(
            created: created, seq: seq.map { .exactly($0.value) } ?? .next, allowsSeqJump: allowSeqJump,
            replacesUnverifiedPointer: force, expires: expires, rolloutPercent: rollout?.value ?? 100,
            salt: salt?.text, pinsEmbedded: pinEmbedded)
        let publication: ChannelPublisher.Publication
        do { publication = try publisher.publish(artifact, to: site, options: options) } catch {
            throw report(error, pointerPath: pointerPath, objectPath: objectPath)
        }
        if let problem = publication.replacedPointerProblem {
            printError("\(pointerPath): replacing a pointer that does not verify (--force): \(problem)")
        }
        try write(publication, artifact: artifact.bytes, pointerPath: pointerPath, objectPath: objectPath)

        let pointer = publication.pointer
        let percent = PercentArgument.text(of: pointer.rollout.percent)
        print(
            "\(pointerPath): \(pointer.epoch > 0 ? "epoch \(pointer.epoch), " : "")seq \(pointer.seq), channel \(channel) → \(objectPath), rollout \(percent)% "
                + "(salt \(pointer.rollout.salt)), expires \(ShippingTime.format(pointer.expires))"
                + (pinEmbedded ? ", pin embedded" : ""))
    }

    /// The pointer's creation time (`--created`, `SOURCE_DATE_EPOCH` or now) and, with
    /// `--expires`, its expiry.
    /// - Throws: `ExitCode(2)`, the usage error printed.
    private func dates() throws(ExitCode) -> (created: Date, expires: Date?) {
        do {
            let created = try ShippingTime.created(
                option: created, environment: ProcessInfo.processInfo.environment, now: Date())
            return (created, try expires?.date(after: created, option: "--expires"))
        } catch { throw error.report("bundle publish") }
    }

    /// The `--key` file and the `--pubkey` files.
    /// - Throws: `ExitCode(2)`, the reason printed.
    private func keys() throws(ExitCode) -> (SigningKey, previous: [VerificationKey]) {
        var previousKeys: [VerificationKey] = []
        for path in self.previousKeys {
            do { previousKeys.append(try KeyFile.readVerificationKey(at: path)) } catch {
                throw UsageError("--pubkey \(path): \(error)").report("bundle publish")
            }
        }
        do {
            return (try KeyFile.readSigningKey(at: key), previousKeys)
        } catch {
            printError("bundle publish: \(error)")
            throw ExitCode(2)
        }
    }

    /// FILE, verified now with `key` as a device would check it: the publisher checks first.
    /// - Throws: `ExitCode(2)` when FILE cannot be read, `ExitCode(1)` when it is refused,
    ///   each answer printed.
    private func verifiedArtifact(key: SigningKey) throws(ExitCode) -> Artifact {
        let bytes = try ArtifactFile.readForCommand(file)
        do {
            return try Artifact(verifying: bytes, keyring: Keyring([key.publicKey]), at: Date())
        } catch {
            print("\(file): refused: \(error)")
            throw ExitCode(1)
        }
    }

    /// Prints a refusal the way the command answers it: a date or pointer the options cannot
    /// make is a usage error (exit 2); the rest are refusals of the file they concern (exit 1).
    private func report(_ error: PublishError, pointerPath: String, objectPath: String) -> ExitCode {
        switch error.code {
        case .outlivesArtifact, .invalidPointer:
            return UsageError(error.message).report("bundle publish")
        case .objectDiffers:
            print("\(objectPath): refused: \(error.message)")
        case .foreignArtifact:
            print("\(file): refused: \(error.message)")
        default:
            print("\(pointerPath): refused: \(error.message)")
        }
        return ExitCode(1)
    }

    /// Writes what `publication` says: the object (unless the site has it), then the mark,
    /// then the pointer, dated after every pointer the channel served.
    private func write(
        _ publication: ChannelPublisher.Publication, artifact: [UInt8], pointerPath: String, objectPath: String
    ) throws(ExitCode) {
        let mark: ChannelServedMark
        do { mark = try ChannelServedMark(directory: directory, channel: channel.name) } catch {
            print("\(pointerPath): refused: \(error)")
            throw ExitCode(1)
        }
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
        if publication.writesObject {
            do { try AtomicFile.write(artifact, to: objectPath) } catch {
                printError("bundle publish: \(error)")
                throw ExitCode(1)
            }
        }
        let modified: Int
        do { modified = try mark.nextTime(replacing: pointerPath) } catch {
            print("\(pointerPath): refused: \(error)")
            throw ExitCode(1)
        }
        do {
            // The mark first: a pointer is never served dated past it, even if publish stops between the two.
            try mark.record(modified)
            try AtomicFile.write(publication.signedPointer, to: pointerPath, modified: modified)
        } catch {
            printError("bundle publish: \(error)")
            throw ExitCode(1)
        }
    }

    /// The channel's current pointer file, read no further than one byte past the cap (so
    /// an oversize one is told unread); `nil` when there is none.
    /// - Throws: `ExitCode(2)` when it exists but cannot be read.
    private static func pointer(at path: String) throws(ExitCode) -> [UInt8]? {
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        guard let handle = FileHandle(forReadingAtPath: path) else {
            printError("bundle publish: cannot read \(path)")
            throw ExitCode(2)
        }
        defer { try? handle.close() }
        guard let data = try? handle.read(upToCount: ChannelPointer.maximumBytes + 1) else {
            printError("bundle publish: cannot read \(path)")
            throw ExitCode(2)
        }
        return Array(data)
    }

    /// What has the object's name: `nil` when nothing does; the bytes of a regular file, read
    /// no further than one byte past the artifact's `length`; `[]` for anything else.
    private static func object(at path: String, length: Int) -> [UInt8]? {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path) else { return nil }
        guard attributes[.type] as? FileAttributeType == .typeRegular, let handle = FileHandle(forReadingAtPath: path)
        else { return [] }
        defer { try? handle.close() }
        return (try? handle.read(upToCount: length + 1)).map(Array.init) ?? []
    }
}
