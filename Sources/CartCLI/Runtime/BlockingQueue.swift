import Dispatch
import Synchronization

/// A queue that one thread waits on while other threads post to it: how a synchronous command
/// hears from its tasks and from signal handlers.
final class BlockingQueue<Element: Sendable>: Sendable {
    private let elements = Mutex<[Element]>([])
    private let available = DispatchSemaphore(value: 0)

    /// Appends an element and wakes the waiting thread.
    func post(_ element: Element) {
        elements.withLock { $0.append(element) }
        available.signal()
    }

    /// Waits for the oldest element not yet taken, and takes it.
    func next() -> Element {
        available.wait()
        // Every signal follows an append, so after a successful wait the array is not empty.
        return elements.withLock { $0.removeFirst() }
    }

    /// Waits up to `timeout` for the oldest element not yet taken, and takes it; `nil` if none
    /// came in that time.
    func next(within timeout: DispatchTimeInterval) -> Element? {
        guard available.wait(timeout: .now() + timeout) == .success else { return nil }
        return elements.withLock { $0.removeFirst() }
    }
}
