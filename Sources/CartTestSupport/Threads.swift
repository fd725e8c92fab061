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

/// Sends `request` `times` times in a row from each of `count` threads at once, and returns
/// one line for every answer other than `status` (its status and body) or error.
package func unexpectedAnswers(
    threads count: Int, times: Int, expecting status: Int, _ request: @escaping @Sendable () throws -> TestResponse
) -> [String] {
    let failures = Recorder<String>()
    runOnThreads(count) { _ in
        for _ in 0..<times {
            do {
                let response = try request()
                if response.status != status { failures.record("\(response.status) \(response.text)") }
            } catch {
                failures.record("\(error)")
            }
        }
    }
    return failures.all
}
