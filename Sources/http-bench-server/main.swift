import CartHTTP
import Glibc
import HTTPServer

// Serves FixedResponder's body through HTTPServer, for comparison with raw-http-baseline, or,
// with --cart, the cart API on a SQLite file (CartMode). Prints "Listening on http://HOST:PORT"
// and serves until SIGINT or SIGTERM, then stops gracefully.
// Usage: http-bench-server [PORT [THREADS [MEMORY_KIB]]] (defaults 8080, 4, 32)
//        http-bench-server --cart DB [--port P] [--threads N] [--admin-token T] [--seed] [--mint N FILE]

let arguments = CommandLine.arguments

var signals = sigset_t()
sigemptyset(&signals)
sigaddset(&signals, SIGINT)
sigaddset(&signals, SIGTERM)
pthread_sigmask(SIG_BLOCK, &signals, nil)

func fail(_ message: String) -> Never {
    let bytes = Array("http-bench-server: \(message)\n".utf8)
    _ = write(2, bytes, bytes.count)
    exit(1)
}

@MainActor
func serve(_ authority: String, until stop: () -> Void) {
    print("Listening on http://\(authority)")
    fflush(nil)
    var received: Int32 = 0
    sigwait(&signals, &received)
    stop()
}

if arguments.count > 1, arguments[1] == "--cart" {
    guard let options = CartMode.options(arguments.dropFirst(2)) else { fail(CartMode.usage) }
    do {
        let server = try CartMode.start(options)
        serve(server.authority) { server.stop() }
    } catch {
        fail("\(error)")
    }
} else {
    let port = arguments.count > 1 ? UInt16(arguments[1]) ?? 8080 : 8080
    let threads = arguments.count > 2 ? Int(arguments[2]) ?? 4 : 4
    let memoryKiB = arguments.count > 3 ? Int(arguments[3]) ?? 32 : 32
    do {
        let server = try HTTPServer(
            configuration: HTTPServerConfiguration(
                host: "127.0.0.1", port: port, threads: threads,
                connectionMemoryLimit: min(max(memoryKiB, 0), 1 << 20) * 1024),
            handler: FixedResponder.handler)
        serve(server.authority) { server.stop() }
    } catch {
        fail("\(error)")
    }
}
