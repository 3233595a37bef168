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
            exists or cannot be written, 64 for a bad --epoch.
            """
    )

    @Option(
        name: .long,
        help: ArgumentHelp("Where to write the private key; the public key goes to PATH.pub.", valueName: "path"))
    var out: String

    @Option(
        name: .long,
        help: ArgumentHelp("The seq epoch the key signs pointers in, 0 to 2^53 - 1 (default 0).", valueName: "n"),
        transform: EpochArgument.init(parsing:))
    var epoch: EpochArgument?

    func run() throws {
        let keyEpoch = epoch?.value ?? 0
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
