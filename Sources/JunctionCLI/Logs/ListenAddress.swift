#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `--listen HOST:PORT`: an IPv4 address and a port (`127.0.0.1:8181`; port 0 lets the
/// system pick one, which the collector prints).
struct ListenAddress: OptionValue, CustomStringConvertible {
    /// The dotted address, as given.
    let host: String
    /// The port, 0 for one the system picks.
    let port: UInt16
    /// The address in network order.
    let address: in_addr

    init(parsing text: String) throws(OptionValueError) {
        guard let colon = text.lastIndex(of: ":"), let port = UInt16(text[text.index(after: colon)...]) else {
            throw OptionValueError("not HOST:PORT (127.0.0.1:8181)")
        }
        let host = String(text[..<colon])
        var address = in_addr()
        guard inet_pton(AF_INET, host, &address) == 1 else {
            throw OptionValueError("\(host) is not an IPv4 address (127.0.0.1, or 0.0.0.0 for every interface)")
        }
        self.host = host
        self.port = port
        self.address = address
    }

    /// `HOST:PORT`.
    var description: String { "\(host):\(port)" }
}
