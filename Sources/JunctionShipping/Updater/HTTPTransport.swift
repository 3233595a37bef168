/// The transport ``BundleUpdater`` and `junction agent` use for `http` and `https` channels:
/// ``CurlTransport`` where libcurl is linked (Linux), ``URLSessionTransport`` elsewhere (Apple
/// platforms, where `URLSession` stops a cancelled transfer and hands over nothing more).
public enum HTTPTransport {
    /// A new transport of this platform's kind.
    public static func make() -> any UpdateTransport {
        #if canImport(CCurl)
            CurlTransport()
        #else
            URLSessionTransport()
        #endif
    }
}
