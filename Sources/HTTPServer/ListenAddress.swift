import CMicroHTTPD
import CMicroHTTPDLoader
import Glibc

/// A resolved address to listen on, in the form libmicrohttpd's `MHD_OPTION_SOCK_ADDR` takes.
struct ListenAddress {
    /// `sockaddr_in` or `sockaddr_in6`, port included.
    private var storage = sockaddr_storage()
    /// Whether it is an IPv6 address (libmicrohttpd then needs `MHD_USE_IPv6`).
    let isIPv6: Bool
    /// The numeric address, such as `127.0.0.1` or `::1`.
    let host: String

    /// Resolves `host` (brackets around an IPv6 address allowed) with `port`.
    ///
    /// - Throws: ``HTTPServerError/invalidHost(_:)`` when it is neither an address nor a
    ///   name that resolves.
    init(host: String, port: UInt16) throws(HTTPServerError) {
        var name = Substring(host)
        if name.hasPrefix("["), name.hasSuffix("]") { name = name.dropFirst().dropLast() }
        guard !name.isEmpty, !name.contains("\0") else { throw .invalidHost(host) }
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_PASSIVE
        var found: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(String(name), nil, &hints, &found) == 0, let first = found else {
            throw .invalidHost(host)
        }
        defer { freeaddrinfo(found) }
        guard let address = first.pointee.ai_addr,
            first.pointee.ai_family == AF_INET || first.pointee.ai_family == AF_INET6
        else { throw .invalidHost(host) }
        withUnsafeMutableBytes(of: &storage) { bytes in
            bytes.copyMemory(from: UnsafeRawBufferPointer(start: address, count: Int(first.pointee.ai_addrlen)))
        }
        let isIPv6 = first.pointee.ai_family == AF_INET6
        self.isIPv6 = isIPv6
        withUnsafeMutableBytes(of: &storage) { bytes in
            if isIPv6 {
                bytes.withMemoryRebound(to: sockaddr_in6.self) { $0[0].sin6_port = port.bigEndian }
            } else {
                bytes.withMemoryRebound(to: sockaddr_in.self) { $0[0].sin_port = port.bigEndian }
            }
        }
        guard let numeric = withUnsafeBytes(of: storage, { bytes in
            bytes.withMemoryRebound(to: sockaddr.self) { Self.numericHost($0.baseAddress) }
        }) else { throw .invalidHost(host) }
        self.host = numeric
    }

    /// The size of the socket address `withSockaddr` passes.
    var length: socklen_t {
        socklen_t(isIPv6 ? MemoryLayout<sockaddr_in6>.size : MemoryLayout<sockaddr_in>.size)
    }

    /// Calls `body` with a pointer to the socket address.
    func withSockaddr<Result>(_ body: (UnsafePointer<sockaddr>) -> Result) -> Result {
        withUnsafeBytes(of: storage) { bytes in
            bytes.withMemoryRebound(to: sockaddr.self) { body($0.baseAddress!) }
        }
    }

    /// The numeric host of an IPv4 or IPv6 socket address, or nil for another family.
    static func numericHost(_ address: UnsafePointer<sockaddr>?) -> String? {
        guard let address else { return nil }
        return withUnsafeTemporaryAllocation(of: CChar.self, capacity: Int(INET6_ADDRSTRLEN)) { text in
            let converted: UnsafePointer<CChar>?
            switch Int32(address.pointee.sa_family) {
            case AF_INET:
                return address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { dottedQuad($0.pointee.sin_addr) }
            case AF_INET6:
                converted = address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { ipv6 in
                    withUnsafePointer(to: ipv6.pointee.sin6_addr) {
                        inet_ntop(AF_INET6, $0, text.baseAddress, socklen_t(text.count))
                    }
                }
            default:
                converted = nil
            }
            return converted.map { String(cString: $0) }
        }
    }

    /// An IPv4 address in dotted-decimal, `127.0.0.1`, written digit by digit: glibc's
    /// `inet_ntop` formats it with `sprintf`, and every request's access-log line needs one.
    static func dottedQuad(_ address: in_addr) -> String {
        withUnsafeBytes(of: address) { bytes in
            String(unsafeUninitializedCapacity: 15) { out in
                var count = 0
                for (index, byte) in bytes.enumerated() {
                    if index > 0 {
                        out[count] = UInt8(ascii: ".")
                        count += 1
                    }
                    if byte >= 100 {
                        out[count] = UInt8(ascii: "0") + byte / 100
                        count += 1
                    }
                    if byte >= 10 {
                        out[count] = UInt8(ascii: "0") + byte / 10 % 10
                        count += 1
                    }
                    out[count] = UInt8(ascii: "0") + byte % 10
                    count += 1
                }
                return count
            }
        }
    }
}
