import ArgumentParser
import JunctionArtifact

/// `junction keygen --out PATH`: a new Ed25519 key pair for signing bundles.
struct KeygenCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keygen",
        abstract: "Create an Ed25519 key pair for signing bundles.",
        discussion: """
            Writes the private key to PATH (mode 0600) and the public key to PATH.pub; neither \
            file may exist already. Prints the key id. --epoch N makes a key of seq epoch N: \
            its pointers start the channel's seq afresh, and devices that trust it for N take \
            them over any pointer of an earlier epoch (docs/artifacts.md, "Seq epochs"). Exit status: 0 on success, 1 when a file \
            exists or cannot be written.
            """
    )

    @Option(
        name: .long,
        help: ArgumentHelp("Where to write the private key; the public key goes to PATH.pub.", valueName: "path"))
    var out: String

    @Option(
        name: .long,
        help: ArgumentHelp("The seq epoch the key signs pointers in, 0 to 2^53 - 1 (default 0).", valueName: "n"))
    var epoch: String?

    func run() throws {
        var keyEpoch: UInt64 = 0
        if let epoch {
            guard (1...16).contains(epoch.utf8.count), epoch.utf8.allSatisfy({ (0x30...0x39).contains($0) }),
                let value = UInt64(epoch), value <= ChannelPointer.maximumSeq
            else {
                throw UsageError(
                    "--epoch \"\(epoch.prefix(40))\" is not a whole number from 0 to \(ChannelPointer.maximumSeq)"
                )
                .report("keygen")
            }
            keyEpoch = value
        }
        let key = SigningKey(epoch: keyEpoch)
        do {
            try KeyFile.write(key, to: out)
        } catch {
            printError("keygen: \(error)")
            throw ExitCode(1)
        }
        print(key.keyID)
        printError(
            "wrote \(out) (private, mode 0600) and \(out).pub" + (keyEpoch > 0 ? ", a key of epoch \(keyEpoch)" : ""))
    }
}
