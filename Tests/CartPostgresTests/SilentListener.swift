import Foundation
import Glibc

/// A TCP port on 127.0.0.1 that accepts connections (the kernel completes the handshake) and
/// never says a word: a host whose PostgreSQL hangs, for testing that clients give up at their
/// `connect_timeout` instead of waiting forever. Given an answer, it answers every connection
/// with it once the client has written, then closes it: another kind of server.
final class SilentListener: Sendable {
    /// The port it listens on.
    let port: Int
    private let socket: Int32

    /// Starts listening on a free port.
    ///
    /// - Throws: `Failed` with the call that failed.
    init(answer: [UInt8]? = nil) throws {
        let (socket, port) = try Self.listen()
        self.socket = socket
        self.port = port
        guard let answer else { return }
        // Ends when `deinit` closes the socket and `accept` fails.
        Thread.detachNewThread {
            while true {
                let client = accept(socket, nil, nil)
                guard client >= 0 else { return }
                var request = [UInt8](repeating: 0, count: 512)
                _ = recv(client, &request, request.count, 0)
                _ = answer.withUnsafeBytes { send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                close(client)
            }
        }
    }

    deinit {
        shutdown(socket, Int32(SHUT_RDWR))
        close(socket)
    }

    struct Failed: Error {
        let call: String
    }

    /// A socket listening on a free port of 127.0.0.1, and that port.
    ///
    /// - Throws: `Failed` with the call that failed.
    static func listen() throws -> (socket: Int32, port: Int) {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw Failed(call: "socket") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { generic in
                bind(socket, generic, length) == 0 && Glibc.listen(socket, 16) == 0
                    && getsockname(socket, generic, &length) == 0
            }
        }
        guard bound else {
            close(socket)
            throw Failed(call: "bind, listen or getsockname")
        }
        return (socket, Int(UInt16(bigEndian: address.sin_port)))
    }
}
