public import JunctionCore

/// Why an artifact or a key file was refused.
///
/// ``code`` says what kind of refusal it is; compare it with the static values of
/// ``Code`` (`error.code == .badSignature`), which may grow without breaking a `switch`.
/// ``description`` is `code: message`, the message saying what was wrong and where.
public typealias ArtifactError = CodedError<ArtifactErrorDomain>

/// What tells the codes of ``ArtifactError`` from other errors' (``ErrorCode``'s `Domain`).
public enum ArtifactErrorDomain {}
