public import JunctionCore
public import JunctionArtifact

extension UpdateRefusal {
    /// The check that refused an update, in the order the pipeline runs them.
    public enum Code: Sendable, Hashable, CustomStringConvertible {
        /// The pointer is larger than a pointer may be; nothing of it was read.
        case pointerOversize
        /// The pointer is not the canonical JSON of a signed pointer with every field valid.
        case pointerMalformed
        /// The pointer carries no signature.
        case pointerUnsigned
        /// The pointer is signed by a key the app does not trust.
        case pointerUnknownKey
        /// The pointer's signature does not verify.
        case pointerBadSignature
        /// The pointer's format version is not one this app reads.
        case pointerUnsupportedFormat
        /// The pointer's seq or epoch is above 2⁵³ − 1 (`ChannelPointer.maximumSeq`).
        case pointerSeqTooLarge
        /// The pointer's epoch is not the one its key is trusted for.
        case pointerWrongEpoch
        /// The pointer is signed for another channel than the one the device follows.
        case wrongChannel
        /// The pointer's epoch is lower than the update last accepted: a pointer of an
        /// epoch the channel has left, replayed or still served.
        case staleEpoch
        /// The pointer's seq is lower than the update last accepted: a replay.
        case staleSeq
        /// The pointer's seq is the one last accepted, but it names another artifact.
        case conflictingSeq
        /// The update (seq and artifact) was refused before, and is not tried again.
        case previouslyFailed
        /// The pointer is past its `expires` at the time the update started.
        case pointerExpired
        /// The pointer's `created` is later than the time the update started plus the
        /// allowed skew.
        case pointerFromFuture
        /// The artifact's length is not the one the pointer gives.
        case artifactLengthMismatch
        /// The artifact's SHA-256 is not the one the pointer gives.
        case artifactHashMismatch
        /// The artifact was refused by its own checks: its signature, format, caps,
        /// members, dates other than expiry.
        case artifactRefused(ArtifactError.Code)
        /// The artifact is past its `expires` at the time the update started.
        case artifactExpired
        /// The bundle needs a newer app than this one.
        case hostTooOld
        /// The bundle's manifest, routes, tests or rules do not load (decode, compile,
        /// the load budget).
        case bundleInvalid
        /// One of the bundle's own tests fails on the device.
        case selfTestFailed
        /// One of the app's invariants does not hold under the bundle.
        case invariantFailed

        /// `staleSeq`, `artifactRefused(badSignature)`.
        public var description: String {
            switch self {
            case .pointerOversize: "pointerOversize"
            case .pointerMalformed: "pointerMalformed"
            case .pointerUnsigned: "pointerUnsigned"
            case .pointerUnknownKey: "pointerUnknownKey"
            case .pointerBadSignature: "pointerBadSignature"
            case .pointerUnsupportedFormat: "pointerUnsupportedFormat"
            case .pointerSeqTooLarge: "pointerSeqTooLarge"
            case .pointerWrongEpoch: "pointerWrongEpoch"
            case .wrongChannel: "wrongChannel"
            case .staleEpoch: "staleEpoch"
            case .staleSeq: "staleSeq"
            case .conflictingSeq: "conflictingSeq"
            case .previouslyFailed: "previouslyFailed"
            case .pointerExpired: "pointerExpired"
            case .pointerFromFuture: "pointerFromFuture"
            case .artifactLengthMismatch: "artifactLengthMismatch"
            case .artifactHashMismatch: "artifactHashMismatch"
            case .artifactRefused(let code): "artifactRefused(\(code))"
            case .artifactExpired: "artifactExpired"
            case .hostTooOld: "hostTooOld"
            case .bundleInvalid: "bundleInvalid"
            case .selfTestFailed: "selfTestFailed"
            case .invariantFailed: "invariantFailed"
            }
        }

        /// The code for a pointer's refusal; a code this app does not know yet reads as
        /// malformed (the message keeps its name).
        init(_ code: PointerError.Code) {
            self =
                switch code {
                case .oversize: .pointerOversize
                case .unsigned: .pointerUnsigned
                case .unknownKey: .pointerUnknownKey
                case .badSignature: .pointerBadSignature
                case .unsupportedFormat: .pointerUnsupportedFormat
                case .seqTooLarge: .pointerSeqTooLarge
                case .wrongEpoch: .pointerWrongEpoch
                default: .pointerMalformed
                }
        }
    }
}
