public import JunctionCore

/// Why ``ChannelPublisher`` refused to publish.
///
/// ``code`` says what kind of refusal it is (`error.code == .seqNotGreater`); ``message``
/// says what was wrong and what to do, in the words of `junction bundle publish`, which
/// prints it after the file it concerns.
public typealias PublishError = CodedError<PublishErrorDomain>

/// What tells the codes of ``PublishError`` from other errors' (``ErrorCode``'s `Domain`).
public enum PublishErrorDomain {}
