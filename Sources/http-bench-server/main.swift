import Glibc
import HTTPServer

// Serves FixedResponder's body through HTTPServer, for comparison with raw-http-baseline.
// Usage: http-bench-server [PORT [THREADS [MEMORY_KIB]]] (defaults 8080, 4, 32); prints
// "Listening on http://HOST:PORT" and serves until SIGINT or SIGTERM, then stops gracefully.

let arguments = CommandLine.arguments
let port = arguments.count > 1 ? UInt16(arguments[1]) ?? 8080 : 8080
let threads = arguments.count > 2 ? Int(arguments[2]) ?? 4 : 4
let memoryKiB = arguments.count > 3 ? Int(arguments[3]) ?? 32 : 32

var signals = sigset_t()
sigemptyset(&signals)
sigaddset(&signals, SIGINT)
sigaddset(&signals, SIGTERM)
pthread_sigmask(SIG_BLOCK, &signals, nil)

do {
    let server = try HTTPServer(
        configuration: HTTPServerConfiguration(
            host: "127.0.0.1", port: port, threads: threads, connectionMemoryLimit: min(max(memoryKiB, 0), 1 << 20) * 1024),
        handler: FixedResponder.handler)
    print("Listening on http://\(server.authority)")
    fflush(nil)
    var received: Int32 = 0
    sigwait(&signals, &received)
    server.stop()
} catch {
    let message = Array("http-bench-server: \(error)\n".utf8)
    _ = write(2, message, message.count)
    exit(1)
}
