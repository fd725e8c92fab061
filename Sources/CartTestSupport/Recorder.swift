import Synchronization

/// Values collected from several threads.
package final class Recorder<Value: Sendable>: Sendable {
    private let values = Mutex<[Value]>([])

    /// An empty recorder.
    package init() {}

    /// Adds a value.
    package func record(_ value: Value) {
        values.withLock { $0.append(value) }
    }

    /// Every value so far, in the order recorded.
    package var all: [Value] {
        values.withLock { $0 }
    }
}
