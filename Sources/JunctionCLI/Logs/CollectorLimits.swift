import JunctionTooling

/// Every cap of `junction logs serve`, each a flag; the defaults suit one machine.
///
/// Memory is bounded by `maximumConnections` × (`maximumBodyBytes` held as received, once
/// more for a plain body compressed before it is written, `maximumHeaderBytes`,
/// `maximumLineBytes` and two 64 KiB zlib buffers): about 140 MiB with the defaults, however
/// many clients come and whatever they send. `maximumInflatedBytes` costs no memory (a body
/// is inflated a chunk at a time); it bounds the work a gzip body may ask for.
struct CollectorLimits: Sendable {
    /// Connections served at once; one more is answered 503 with `Retry-After` and closed.
    var maximumConnections = 64
    /// The request line and headers, in bytes; more is answered 431.
    var maximumHeaderBytes = 16 << 10
    /// A body as sent (compressed or not), in bytes; more is answered 413 before it is read.
    var maximumBodyBytes = 1 << 20
    /// A body once inflated, in bytes; a gzip body that inflates past it is answered 413 as
    /// soon as it does, never inflated further.
    var maximumInflatedBytes = 16 << 20
    /// One line, in bytes: what `junction diff --urls` reads at most (a longer line is 413).
    var maximumLineBytes = CorpusReader.maximumLineBytes
    /// From the connection's start to the end of its headers; a slower client is answered 408.
    var headerTimeout: Duration = .seconds(10)
    /// From the end of the headers to the end of the body; a slower client is answered 408.
    var bodyTimeout: Duration = .seconds(30)
    /// How long the answer may take to send, and how long the rest of a refused body is
    /// read and dropped after it, so the client reads the answer rather than a reset.
    var lingerTimeout: Duration = .seconds(1)
}
