#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Synchronization

/// A clock the test moves by hand. It starts on a whole second and moves in whole seconds, so
/// instants survive backends that store milliseconds unchanged.
final class TestClock: Sendable {
    /// 2026-03-01T12:00:00Z.
    static let start = Date(timeIntervalSince1970: 1_772_366_400)

    private let current: Mutex<Date>

    init(_ start: Date = TestClock.start) {
        current = Mutex(start)
    }

    /// The instant the service sees now.
    var now: Date { current.withLock { $0 } }

    /// Moves the clock forward by whole seconds.
    func advance(seconds: Int) {
        current.withLock { $0 = $0.addingTimeInterval(TimeInterval(seconds)) }
    }

    /// Puts the clock at `date`.
    func set(_ date: Date) {
        current.withLock { $0 = date }
    }
}
