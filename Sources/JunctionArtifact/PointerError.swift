public import JunctionCore

/// Why a channel pointer was refused.
///
/// ``code`` says what kind of refusal it is (`error.code == .badSignature`); ``message``
/// says what was wrong and where, as `junction bundle publish` and a device's status print it.
public typealias PointerError = CodedError<PointerErrorDomain>

/// What tells the codes of ``PointerError`` from other errors' (``ErrorCode``'s `Domain`).
public enum PointerErrorDomain {}
