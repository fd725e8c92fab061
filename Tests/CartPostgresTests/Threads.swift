import Foundation

/// Runs `work(i)` for i in 0 ..< threads, each on a thread of its own, all released at once,
/// and returns the errors they threw.
func onThreads(_ threads: Int, _ work: @escaping @Sendable (Int) throws -> Void) -> [any Error] {
    let start = DispatchSemaphore(value: 0)
    let group = DispatchGroup()
    let errors = Collector<any Error>()
    for index in 0..<threads {
        group.enter()
        Thread.detachNewThread {
            defer { group.leave() }
            start.wait()
            do { try work(index) } catch { errors.append(error) }
        }
    }
    for _ in 0..<threads { start.signal() }
    group.wait()
    return errors.all
}
