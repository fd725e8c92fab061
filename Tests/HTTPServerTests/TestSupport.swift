import Glibc
import HTTPServer
import Synchronization

/// Starts a server on 127.0.0.1, port 0, with `adjust` applied to the configuration.
func startServer(
    _ adjust: (inout HTTPServerConfiguration) -> Void = { _ in }, handler: @escaping HTTPHandler
) throws -> HTTPServer {
    var configuration = HTTPServerConfiguration(host: "127.0.0.1", port: 0)
    adjust(&configuration)
    return try HTTPServer(configuration: configuration, handler: handler)
}

/// A request as a raw string, with Host and the given extra header lines.
func rawRequest(_ method: String, _ target: String, headers: [String] = [], body: String = "") -> String {
    var text = "\(method) \(target) HTTP/1.1\r\nHost: test\r\n"
    for header in headers { text += header + "\r\n" }
    if !body.isEmpty { text += "Content-Length: \(body.utf8.count)\r\n" }
    return text + "\r\n" + body
}

/// Values collected from several threads.
final class Recorder<Value: Sendable>: Sendable {
    private let values = Mutex<[Value]>([])

    func record(_ value: Value) {
        values.withLock { $0.append(value) }
    }

    var all: [Value] {
        values.withLock { $0 }
    }
}

/// Runs `body` on `count` new threads at once (not a pool that would cap them at the core
/// count) and waits for all of them.
func runOnThreads(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
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
func pause(milliseconds: Int) {
    usleep(UInt32(milliseconds * 1000))
}
