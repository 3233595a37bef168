import ArgumentParser
import JunctionArtifact

/// `junction keygen --out PATH`: a new Ed25519 key pair for signing bundles.
struct KeygenCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keygen",
        abstract: "Create an Ed25519 key pair for signing bundles.",
        discussion: """
            Writes the private key to PATH (mode 0600) and the public key to PATH.pub; neither \
            file may exist already. Prints the key id. Exit status: 0 on success, 1 when a file \
            exists or cannot be written.
            """
    )

    @Option(
        name: .long,
        help: ArgumentHelp("Where to write the private key; the public key goes to PATH.pub.", valueName: "path"))
    var out: String

    func run() throws {
        let key = SigningKey()
        do {
            try KeyFile.write(key, to: out)
        } catch {
            printError("keygen: \(error)")
            throw ExitCode(1)
        }
        print(key.keyID)
        printError("wrote \(out) (private, mode 0600) and \(out).pub")
    }
}
