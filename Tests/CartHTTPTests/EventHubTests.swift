import CartCore
@testable import CartHTTP
import CartInMemory
import CartTestSupport
@testable import HTTPServer
import Testing

@Suite("The event hub")
struct EventHubTests {
    @Test("a change is read and framed once, however many streams watch its cart, and every stream is sent those bytes")
    func framedOncePerChange() async throws {
        let repository = InMemoryCartRepository()
        let reads = Recorder<String>()
        let hub = CartEventHub(
            repository: repository, interval: .milliseconds(2),
            read: { _ in
                let event = "event \(try repository.changeToken())\n\n"
                reads.record(event)
                return Array(event.utf8)
            },
            log: { _ in }, notice: { _ in })
        defer { hub.stop() }
        let streams = (0..<10).map { _ in HTTPStream() }
        defer { streams.forEach { $0.close() } }
        for stream in streams { hub.watch("alice", stream: stream, sent: []) }
        let first = try repository.changeToken()
        // Registering marks the cart to be read on the next poll, once per poll however many
        // streams registered since the last.
        #expect(try await Self.received(by: streams) == Array(repeating: "event \(first)\n\n", count: 10))
        let settled = try await Self.settled(reads)
        try CartService(repository: repository).updateSettings(maxLinesPerCart: 5)
        let second = try repository.changeToken()
        #expect(second != first)
        #expect(try await Self.received(by: streams) == Array(repeating: "event \(second)\n\n", count: 10))
        #expect(reads.all.count == settled + 1, "one read for the change, not one per stream")
    }

    /// The count once it has stopped moving: the reads that registrations asked for are over.
    private static func settled(_ reads: Recorder<String>) async throws -> Int {
        var last = reads.all.count
        while true {
            try await Task.sleep(for: .milliseconds(50))
            let now = reads.all.count
            if now == last { return now }
            last = now
        }
    }

    /// What each of `streams` is sent next, once every one of them was sent something.
    private static func received(by streams: [HTTPStream]) async throws -> [String] {
        var received = Array(repeating: [UInt8](), count: streams.count)
        // Generous: on a machine busy with the other suites a poll may come late.
        let deadline = ContinuousClock.now + .seconds(120)
        while received.contains(where: \.isEmpty), ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(5))
            for (index, stream) in streams.enumerated() { received[index] += stream.takeQueued() }
        }
        return received.map { String(decoding: $0, as: UTF8.self) }
    }
}

extension HTTPStream {
    /// The bytes queued and not yet read, taken as a connection's content reader takes them.
    func takeQueued() -> [UInt8] {
        var taken: [UInt8] = []
        var buffer = [CChar](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBufferPointer { read(into: $0.baseAddress!, capacity: $0.count) }
            // With no connection, a stream with nothing queued answers end-of-stream (-1).
            guard count > 0 else { return taken }
            taken += buffer[..<count].map { UInt8(bitPattern: $0) }
        }
    }
}
