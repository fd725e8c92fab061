import CartCore
@testable import CartHTTP
import CartInMemory
import CartTestSupport
import HTTPServer
import Synchronization
import Testing

/// An in-memory repository whose change token and reads fail while `failing` is set.
private final class OutageRepository: CartRepository {
    struct Outage: Error, CustomStringConvertible {
        var description: String { "the server is down" }
    }

    private let base = InMemoryCartRepository()
    private let state = Mutex((failing: false, tokenCalls: 0))

    func setFailing(_ failing: Bool) { state.withLock { $0.failing = failing } }
    var tokenCalls: Int { state.withLock { $0.tokenCalls } }

    private func check() throws {
        try state.withLock { state in
            state.tokenCalls += 1
            if state.failing { throw Outage() }
        }
    }

    func write<Result>(_ body: (any CartStorageWriter) throws -> Result) throws -> Result { try base.write(body) }
    func read<Result>(_ body: (any CartStorageReader) throws -> Result) throws -> Result { try base.read(body) }
    func changeToken() throws -> Int64 {
        try check()
        return try base.changeToken()
    }
}

@Suite("Event streams while the store is unavailable")
struct EventHubOutageTests {
    @Test("an outage is logged once as an error when it begins and once as a notice when it ends, however many polls it lasts")
    func outageLoggedOnce() async throws {
        let repository = OutageRepository()
        let log = Recorder<String>()
        let hub = CartEventHub(
            repository: repository, interval: .milliseconds(2), read: { _ in Array("{}".utf8) },
            log: { log.record("error: " + $0) }, notice: { log.record("note: " + $0) })
        defer { hub.stop() }
        let stream = HTTPStream()
        defer { stream.close() }
        hub.watch("alice", stream: stream, sent: Array("{}".utf8))
        repository.setFailing(true)
        let start = repository.tokenCalls
        // Generous deadlines: on a machine busy with the other suites a poll may come late.
        var deadline = ContinuousClock.now + .seconds(120)
        while repository.tokenCalls < start + 20, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(5)) }
        #expect(repository.tokenCalls >= start + 20, "the hub polled the failing store")
        repository.setFailing(false)
        deadline = ContinuousClock.now + .seconds(120)
        while !log.all.contains(where: { $0.contains("readable again") }), ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(5))
        }
        let lines = log.all
        #expect(lines.filter { $0.hasPrefix("error: event streams: cannot read the store's change token: the server is down") }.count == 1, "\(lines)")
        #expect(lines.filter { $0 == "note: event streams: the store's change token is readable again" }.count == 1, "\(lines)")
        #expect(lines.count == 2, "\(lines)")
    }
}

@Suite("Event streams of a cart the store cannot read")
struct EventHubDamagedCartTests {
    @Test("the log line names the stored value once, without a full stop before '; trying again'")
    func damagedCartLogged() async throws {
        let repository = InMemoryCartRepository()
        let log = Recorder<String>()
        let hub = CartEventHub(
            repository: repository, interval: .milliseconds(2),
            read: { _ in throw StoredDataError("the price of product 'pear' is -1, below 0") }, log: { log.record($0) },
            notice: { log.record($0) })
        defer { hub.stop() }
        let stream = HTTPStream()
        defer { stream.close() }
        hub.watch("alice", stream: stream, sent: Array("{}".utf8))
        let deadline = ContinuousClock.now + .seconds(120)
        while log.all.isEmpty, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(5)) }
        #expect(
            log.all == [
                "event streams: cannot read cart 'alice': The store holds a value this version cannot use: "
                    + "the price of product 'pear' is -1, below 0; trying again"
            ])
    }
}
