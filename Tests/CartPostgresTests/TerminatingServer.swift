import Foundation
import Glibc

/// A fake PostgreSQL server on 127.0.0.1 that lets every client in and ends its session at
/// once, as `pg_terminate_backend` does just after authentication: it declines SSL and GSS
/// encryption, answers the startup packet with AuthenticationOk and ReadyForQuery followed, in
/// the same write, by the FATAL ErrorResponse 57P01, then closes the connection. The client
/// reads that error while its connection is idle, and libpq hands it to the notice receiver.
final class TerminatingServer: Sendable {
    /// The port it listens on.
    let port: Int
    private let socket: Int32

    /// Starts listening on a free port.
    ///
    /// - Throws: `SilentListener.Failed` with the call that failed.
    init() throws {
        let (socket, port) = try SilentListener.listen()
        self.socket = socket
        self.port = port
        // Ends when `deinit` closes the socket and `accept` fails.
        Thread.detachNewThread {
            while true {
                let client = accept(socket, nil, nil)
                guard client >= 0 else { return }
                Self.serve(client)
                close(client)
            }
        }
    }

    deinit {
        shutdown(socket, Int32(SHUT_RDWR))
        close(socket)
    }

    /// The request codes of SSLRequest and GSSENCRequest, which the server declines with 'N'.
    private static let encryptionRequests: Set<UInt32> = [80_877_103, 80_877_104]

    /// AuthenticationOk, ReadyForQuery (idle), then the ErrorResponse a terminated backend sends.
    private static let answer: [UInt8] = {
        func int32(_ value: Int) -> [UInt8] { withUnsafeBytes(of: UInt32(value).bigEndian, Array.init) }
        var fields: [UInt8] = []
        for (code, text) in [("S", "FATAL"), ("V", "FATAL"), ("C", "57P01"), ("M", "terminating connection due to administrator command")] {
            fields += Array(code.utf8) + Array(text.utf8) + [0]
        }
        fields.append(0)
        let authenticationOk: [UInt8] = Array("R".utf8) + int32(8) + int32(0)
        let readyForQuery: [UInt8] = Array("Z".utf8) + int32(5) + Array("I".utf8)
        let errorResponse: [UInt8] = Array("E".utf8) + int32(4 + fields.count) + fields
        return authenticationOk + readyForQuery + errorResponse
    }()

    /// Reads the client's packets, declining encryption, until the startup packet, then answers it.
    private static func serve(_ client: Int32) {
        while let packet = readPacket(client) {
            let code = packet.count >= 4 ? packet[0..<4].reduce(UInt32(0)) { $0 << 8 | UInt32($1) } : 0
            if encryptionRequests.contains(code) {
                guard write(client, Array("N".utf8)) else { return }
                continue
            }
            _ = write(client, answer)
            return
        }
    }

    /// One length-prefixed packet's body, or `nil` at the end of the stream.
    private static func readPacket(_ client: Int32) -> [UInt8]? {
        guard let header = read(client, count: 4) else { return nil }
        let length = Int(header.reduce(UInt32(0)) { $0 << 8 | UInt32($1) })
        guard length >= 4, length < 10_000 else { return nil }
        return read(client, count: length - 4)
    }

    private static func read(_ client: Int32, count: Int) -> [UInt8]? {
        var bytes = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            let received = bytes.withUnsafeMutableBytes { recv(client, $0.baseAddress! + filled, count - filled, 0) }
            guard received > 0 else { return nil }
            filled += received
        }
        return bytes
    }

    private static func write(_ client: Int32, _ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) } == bytes.count
    }
}
