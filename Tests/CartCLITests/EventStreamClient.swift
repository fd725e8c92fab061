import CartTestSupport
import Foundation

/// A client of one `text/event-stream` response over its own connection, reading the `data`
/// of each event as it arrives.
final class EventStreamClient {
    private let connection: TestConnection
    private var pending = ""

    /// Opens `target` on `server` and reads the response head.
    ///
    /// - Throws: `TestConnection.Failure` when the server does not answer 200.
    init(_ target: String, on server: RunningServer) throws {
        connection = try TestConnection(port: server.port)
        connection.send(server.request("GET", target, headers: ["Accept: text/event-stream"]))
        let head = try connection.readHead()
        guard head.status == 200 else {
            throw TestConnection.Failure(description: "the event stream answered \(head.status)")
        }
    }

    /// The `data` of the next event named `name`, or nil when the stream ends first.
    ///
    /// - Throws: `TestConnection.Failure` when the connection breaks or goes quiet past the
    ///   read timeout.
    func next(_ name: String = "cart") throws -> String? {
        while true {
            while let end = pending.range(of: "\n\n") {
                let event = pending[..<end.lowerBound]
                pending.removeSubrange(..<end.upperBound)
                let lines = event.split(separator: "\n")
                guard lines.contains("event: \(name)") else { continue }
                return lines.filter { $0.hasPrefix("data: ") }.map { String($0.dropFirst(6)) }.joined(separator: "\n")
            }
            guard let chunk = try connection.readChunk() else { return nil }
            pending += String(decoding: chunk, as: UTF8.self)
        }
    }

    /// Whether the server ends the stream (its last chunk, or closing the connection) before
    /// the read timeout, whatever events come first.
    func ends() -> Bool {
        while true {
            do {
                guard try connection.readChunk() != nil else { return true }
            } catch {
                return connection.peerClosed()
            }
        }
    }
}
