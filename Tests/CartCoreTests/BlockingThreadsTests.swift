@testable import CartCore
import Dispatch
import Synchronization
import Testing

@Suite("Blocking threads")
struct BlockingThreadsTests {
    /// The jobs that ran, checked in order.
    private final class Progress: Sendable {
        let ran = Mutex((count: 0, inOrder: true))
    }

    @Test("a job still waiting for a thread when its caller's task is cancelled runs, and its result comes back")
    func cancelledWhileWaiting() async throws {
        let threads = BlockingThreads(count: 1)
        let started = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let blocker = Task { try await threads.run { started.signal(); release.wait() } }
        await Task.detached { started.wait() }.value
        let waiting = Task { try await threads.run { 7 } }
        waiting.cancel()
        release.signal()
        #expect(try await waiting.value == 7)
        try await blocker.value
    }

    @Test("a queue of 200,000 waiting jobs drains in order, each taken at the same cost however many wait")
    func longQueue() throws {
        let jobs = 200_000
        let queue = JobQueue()
        try #require(queue.startWorker())
        let release = DispatchSemaphore(value: 0)
        let done = DispatchSemaphore(value: 0)
        let progress = Progress()
        // The one thread waits while every job queues up behind it.
        queue.submit { release.wait() }
        for job in 0..<jobs {
            queue.submit {
                progress.ran.withLock { ran in
                    ran.inOrder = ran.inOrder && ran.count == job
                    ran.count += 1
                }
            }
        }
        queue.submit { done.signal() }
        let start = ContinuousClock.now
        release.signal()
        #expect(done.wait(timeout: .now() + 120) == .success)
        let elapsed = ContinuousClock.now - start
        #expect(progress.ran.withLock { $0.count == jobs && $0.inOrder })
        // Taking each job from the front of one array would move every job behind it, and
        // take many times this long.
        #expect(elapsed < .seconds(4), "\(elapsed)")
    }
}
