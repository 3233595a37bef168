import ArgumentParser
import Foundation
import JunctionArtifact

/// Reads an artifact file for `bundle verify`, `inspect` and `publish`, never more than the
/// size cap allows.
enum ArtifactFile {
    /// Why a file gave no bytes to check.
    enum Failure: Error {
        /// The file could not be read: exit 2.
        case unreadable(String)
        /// The file is larger than the cap: a refusal, exit 1.
        case refused(ArtifactError)
    }

    /// The bytes of `path`, when it has at most `limits.totalSize` of them.
    static func read(_ path: String, limits: ArtifactLimits) throws(Failure) -> [UInt8] {
        guard let handle = FileHandle(forReadingAtPath: path) else { throw .unreadable("cannot read \(path)") }
        defer { try? handle.close() }
        // One byte past the cap tells an oversize file without reading the rest of it.
        guard let data = try? handle.read(upToCount: limits.totalSize + 1) else {
            throw .unreadable("cannot read \(path)")
        }
        if data.count > limits.totalSize {
            throw .refused(
                ArtifactError(
                    .oversize,
                    "the artifact has more than \(limits.totalSize) bytes; at most \(limits.totalSize) are allowed"))
        }
        return Array(data)
    }

    /// The bytes of `path` for a command, within the default cap; otherwise the command's
    /// answer is printed — `FILE: cannot read …` (exit 2) or `FILE: refused: oversize: …` (exit 1).
    static func readForCommand(_ path: String) throws(ExitCode) -> [UInt8] {
        do {
            return try read(path, limits: .default)
        } catch {
            switch error {
            case .unreadable(let message):
                printError("\(path): \(message)")
                throw ExitCode(2)
            case .refused(let refusal):
                print("\(path): refused: \(refusal)")
                throw ExitCode(1)
            }
        }
    }
}
