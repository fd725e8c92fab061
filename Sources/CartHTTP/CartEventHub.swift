import CartCore
import Dispatch
import HTTPServer
import Synchronization

/// The one watcher behind every open event stream: a single thread polls the store's change
/// token, and when it moved (a commit by any connection or process) reads each watched cart
/// once, frames its `cart` event once, and writes those bytes to the streams whose last event
/// differs.
///
/// A stream is registered after its first event was sent; registering marks its cart to be
/// read on the next poll whatever the token says, so a change landing between that first
/// read and the registration still arrives. While no stream is open the thread sleeps.
final class CartEventHub: Sendable {
    /// Reads a cart and frames its `cart` event: the bytes every stream of the cart is sent.
    typealias Reader = @Sendable (_ cartID: String) throws -> [UInt8]

    private struct Subscriber {
        let stream: HTTPStream
        var lastEvent: [UInt8]
        /// When it was registered, in `State.registrations`.
        let registration: UInt64
    }

    private struct State: ~Copyable {
        var subscribers: [String: [ObjectIdentifier: Subscriber]] = [:]
        var dirty: Set<String> = []
        /// How many streams were ever registered.
        var registrations: UInt64 = 0
        var running = false
        var stopped = false
    }

    private let state = Mutex(State())
    private let wake = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)
    private let repository: any CartRepository
    private let pollDelay: DispatchTimeInterval
    private let read: Reader
    /// Receives a failure to read, once until it clears.
    private let log: @Sendable (String) -> Void
    /// Receives the news that a failure logged before has cleared.
    private let notice: @Sendable (String) -> Void

    /// A hub polling `repository` every `interval`, reading and framing carts' events with `read`.
    init(
        repository: any CartRepository, interval: Duration, read: @escaping Reader,
        log: @escaping @Sendable (String) -> Void, notice: @escaping @Sendable (String) -> Void
    ) {
        self.repository = repository
        self.pollDelay = .milliseconds(max(1, Int((interval / .milliseconds(1)).rounded(.up))))
        self.read = read
        self.log = log
        self.notice = notice
    }

    /// Sends `stream` the `cart` event of `cartID` whenever it differs from `event`, the one
    /// sent last, until the stream ends. A hub that has stopped ends the stream at once.
    func watch(_ cartID: String, stream: HTTPStream, sent event: [UInt8]) {
        let (accepted, start) = state.withLock { state -> (Bool, Bool) in
            guard !state.stopped else { return (false, false) }
            state.registrations += 1
            state.subscribers[cartID, default: [:]][ObjectIdentifier(stream)] = Subscriber(
                stream: stream, lastEvent: event, registration: state.registrations)
            state.dirty.insert(cartID)
            defer { state.running = true }
            return (true, !state.running)
        }
        guard accepted else { return stream.close() }
        stream.onClose { [weak self] in self?.forget(stream, of: cartID) }
        if start { DispatchQueue(label: "cart-events").async { self.run() } }
        wake.signal()
    }

    /// Stops the thread and waits for it; streams are left to the server, which ends them.
    /// Later calls return at once.
    func stop() {
        let mustWait = state.withLock { state in
            defer { state.stopped = true }
            return state.running && !state.stopped
        }
        guard mustWait else { return }
        wake.signal()
        finished.wait()
    }

    private func forget(_ stream: HTTPStream, of cartID: String) {
        state.withLock { state in
            state.subscribers[cartID]?[ObjectIdentifier(stream)] = nil
            if state.subscribers[cartID]?.isEmpty == true { state.subscribers[cartID] = nil }
        }
    }

    private func run() {
        var lastToken: Int64?
        // A failure is logged when it begins and its end when reads work again, not once a
        // poll: a store that is down for a minute would otherwise write hundreds of lines.
        var tokenFailing = false
        var failingCarts: Set<String> = []
        while true {
            let idle = state.withLock { $0.subscribers.isEmpty }
            if idle { wake.wait() } else { _ = wake.wait(timeout: .now() + pollDelay) }
            let (stopped, watched, dirty) = state.withLock { state in
                defer { state.dirty = [] }
                return (state.stopped, Array(state.subscribers.keys), state.dirty)
            }
            if stopped { break }
            guard !watched.isEmpty else { continue }
            let token: Int64
            do {
                token = try repository.changeToken()
            } catch {
                if !tokenFailing { log("event streams: cannot read the store's change token: \(DisplayText.clause("\(error)")); trying again") }
                tokenFailing = true
                // The carts marked for this poll stay marked for the next.
                state.withLock { $0.dirty.formUnion(dirty) }
                continue
            }
            if tokenFailing { notice("event streams: the store's change token is readable again") }
            tokenFailing = false
            let due = token == lastToken ? watched.filter(dirty.contains) : watched
            lastToken = token
            for cartID in due { deliver(cartID, failing: &failingCarts) }
            failingCarts.formIntersection(watched)
        }
        finished.signal()
    }

    /// Reads the cart and frames its event, once however many streams watch it, and writes it
    /// to each of its streams whose last event differs; a failed
    /// read is tried again on the next poll, and logged unless `failing` holds the cart
    /// already. A stream registered during the read may have been sent a later cart first, so
    /// it is left to the next poll, which its registration asks for.
    private func deliver(_ cartID: String, failing: inout Set<String>) {
        let registeredBefore = state.withLock { $0.registrations }
        let event: [UInt8]
        do {
            event = try read(cartID)
        } catch {
            if failing.insert(cartID).inserted {
                log("event streams: cannot read cart '\(DisplayText.clean(cartID))': \(DisplayText.clause("\(error)")); trying again")
            }
            state.withLock { _ = $0.dirty.insert(cartID) }
            return
        }
        if failing.remove(cartID) != nil { notice("event streams: cart '\(DisplayText.clean(cartID))' is readable again") }
        let streams = state.withLock { state -> [HTTPStream] in
            guard var subscribers = state.subscribers[cartID] else { return [] }
            var due: [HTTPStream] = []
            for (key, subscriber) in subscribers
            where subscriber.registration <= registeredBefore && subscriber.lastEvent != event {
                due.append(subscriber.stream)
                subscribers[key]?.lastEvent = event
            }
            state.subscribers[cartID] = subscribers
            return due
        }
        for stream in streams { stream.write(event) }
    }
}
