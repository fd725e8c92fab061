import Glibc

/// Runs `body` on `count` new threads at once (not a pool that would cap them at the core
/// count) and waits for all of them.
package func runOnThreads(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
    final class Job {
        let index: Int
        let body: @Sendable (Int) -> Void
        init(index: Int, body: @escaping @Sendable (Int) -> Void) {
            self.index = index
            self.body = body
        }
    }
    var threads: [pthread_t] = []
    for index in 0..<count {
        var thread = pthread_t()
        let job = Unmanaged.passRetained(Job(index: index, body: body)).toOpaque()
        let created = pthread_create(
            &thread, nil,
            { argument in
                guard let argument else { return nil }
                let job = Unmanaged<Job>.fromOpaque(argument).takeRetainedValue()
                job.body(job.index)
                return nil
            }, job)
        if created == 0 { threads.append(thread) }
    }
    for thread in threads { pthread_join(thread, nil) }
}

/// Sleeps the calling thread.
package func pause(milliseconds: Int) {
    usleep(UInt32(milliseconds * 1000))
}
