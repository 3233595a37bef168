import ArgumentParser
import Foundation
import JunctionArtifact
import JunctionCore

/// `junction bundle verify FILE --pubkey PUB...`: check an artifact as a device would.
struct BundleVerifyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Verify a .jbundle: its structure, signature, dates and member hashes.",
        discussion: """
            The public keys are the keyring: the artifact must name one of them by key id and \
            carry its valid signature. Exit status: 0 when the artifact is valid now, 1 when it \
            is refused (the typed reason is printed), 2 when the file or a key cannot be read.
            """
    )

    @Argument(help: ArgumentHelp("The artifact.", valueName: "file"))
    var file: String

    @Option(
        name: .customLong("pubkey"), parsing: .upToNextOption,
        help: ArgumentHelp("Public key files (PATH.pub from junction keygen) to trust.", valueName: "pub"))
    var pubkeys: [String]

    func validate() throws {
        if pubkeys.isEmpty { throw ValidationError("give at least one --pubkey") }
    }

    func run() throws {
        var keys: [VerificationKey] = []
        for path in pubkeys {
            do {
                keys.append(try KeyFile.readVerificationKey(at: path))
            } catch {
                printError("\(file): \(error)")
                throw ExitCode(2)
            }
        }
        let bytes = try ArtifactFile.readForCommand(file)
        do {
            let artifact = try Artifact(verifying: bytes, keyring: Keyring(keys), at: Date())
            let header = artifact.header
            let members = header.members.count == 1 ? "1 member" : "\(header.members.count) members"
            print(
                "\(file): ok, \(ControlCharacters.escaped(header.name)) \(ControlCharacters.escaped(header.version)), \(members), signed by \(header.keyID), expires \(header.expires.formatted(.iso8601))"
            )
        } catch {
            print("\(file): refused: \(error)")
            throw ExitCode(1)
        }
    }
}
