import Foundation
import Junction
import JunctionShipping
import JunctionArtifact

/// One side of a diff: a bundle folder, or a `.jbundle` artifact verified by one of the
/// given keys (its dates are not checked: yesterday's artifact may have expired, and it
/// still says what devices did).
struct DiffSide {
    let path: String
    let loaded: LoadedBundle

    /// The bundle at `path`, deciding as a device would (instructions counted in steps).
    /// - Returns: The side, or every line that says why it does not load.
    static func load(_ path: String, keys: [VerificationKey]) -> Result<DiffSide, DiffSideError> {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
            return .failure(DiffSideError(["\(path): no such bundle folder or artifact"]))
        }
        if isFolder.boolValue {
            return LoadedBundle.load(path, showLogs: false, exactCounts: false)
                .map { DiffSide(path: path, loaded: $0) }
                .mapError { DiffSideError($0.diagnostics.map(\.description)) }
        }
        guard !keys.isEmpty else {
            return .failure(
                DiffSideError([
                    "\(path): an artifact is read only when it verifies: give the key it is signed with, --pubkey FILE.pub"
                ]))
        }
        let bytes: [UInt8]
        do { bytes = try ArtifactFile.read(path, limits: .default) } catch {
            switch error {
            case .unreadable(let message): return .failure(DiffSideError(["\(path): \(message)"]))
            case .refused(let refusal): return .failure(DiffSideError(["\(path): refused: \(refusal)"]))
            }
        }
        do {
            let artifact = try Artifact(verifying: bytes, keyring: Keyring(keys), dates: .skipped)
            let bundle = try RuleBundle(artifact: artifact, logger: LoadedBundle.ruleLogger(false))
            let decider: Decider
            do { decider = try Decider(bundle: bundle) } catch {
                return .failure(DiffSideError(error.diagnostics.map(\.description)))
            }
            return .success(DiffSide(path: path, loaded: LoadedBundle(bundle: bundle, decider: decider)))
        } catch let refusal as UpdateRefusal {
            return .failure(DiffSideError(["\(path): \(refusal)"]))
        } catch {
            return .failure(DiffSideError(["\(path): refused: \(error)"]))
        }
    }

    /// `example@4 (rules/example)`.
    var label: String { "\(loaded.label) (\(path))" }
}

/// Why a side of a diff does not load: one line each.
struct DiffSideError: Error {
    let lines: [String]
    init(_ lines: [String]) { self.lines = lines }
}
