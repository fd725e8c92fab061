import CartCore
import CartHTTP
import CartSQLite
import Dispatch
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// `cart serve`: the cart API over HTTP on the chosen store, until SIGINT, SIGTERM or SIGHUP.
enum ServeCommand {
    static let listen = Option<String>(
        "--listen", "host:port",
        help: "Where to listen: an address or name and a port (0 picks a free one); [::1]:8080 for IPv6.",
        environment: "CART_LISTEN", default: "127.0.0.1:8080")
    static let adminToken = Option<String?>(
        "--admin-token", "token",
        help: "The token admin routes and carts not minted here need (Authorization: Bearer TOKEN); "
            + "at least 16 printable ASCII characters, no spaces. Prefer the variable: a command line is visible to others.",
        environment: "CART_ADMIN_TOKEN")
    static let threads = Option<Int>(
        "--threads", "n", 1...256, help: "Requests served at once, from 1 to 256, each with its own connection to the store.",
        default: 4)
    static let connections = Option<Int?>(
        "--connections", "n", 1...257,
        help: "Connections to the store, from 1 to 257 (without it, one a thread and one for the event streams: "
            + "at most 256 + 1). SQLite writes through one and reads through the rest, and opens one more to "
            + "checkpoint its log; 1 serves every request through one connection.")

    static let maxConnections = Option<Int>(
        "--max-connections", "n", 1...65_536,
        help: "The most HTTP connections open at once, from 1 to 65536; event streams may hold three quarters of "
            + "them (at least one), so that the rest stay for other requests. Each takes a file descriptor: "
            + "raise 'ulimit -n' above it.",
        environment: "CART_MAX_CONNECTIONS", default: 1000)

    static let clientConnections = Option<Int?>(
        "--client-connections", "n", 0...65_536,
        help: "The most HTTP connections one client address may hold open at once, event streams included; 0 for "
            + "no limit (without it: none on loopback, 64 beyond). Behind a proxy on another host every client "
            + "shares the proxy's address: give 0 there, and let the proxy limit each client.",
        environment: "CART_CLIENT_CONNECTIONS")

    static let heartbeat = Option<Int>(
        "--heartbeat", "seconds", 1...300,
        help: "How often each cart event stream gets a heartbeat event, from 1 to 300 seconds; a proxy in front "
            + "that closes quiet connections needs one more often than its timeout.",
        default: 15)

    static let spec = CommandSpec(
        "serve", abstract: "Serve the carts, the catalog and the orders over HTTP, and the shop to a browser.",
        discussion: """
            Prints 'Listening on http://HOST:PORT' (with --json, {"url":"http://HOST:PORT"}) once it \
            listens; on stderr, the store it serves (a password masked), then one line per request. \
            The shop is at that address; the API under /v1/, described by /v1/openapi.yaml. Without an \
            admin token it listens on loopback only (127.0.0.1, [::1], localhost) and every route is open \
            to what can reach it there; with one, admin routes and carts the server did not mint need it. \
            Every server of one store recognises the carts any of them minted. SIGINT (Ctrl-C), SIGTERM \
            or SIGHUP (the terminal closed) stops it: no new connections, requests in flight get 10 \
            seconds to finish (one still waiting on the store then is cut off, unanswered and unsaved, \
            within 2 seconds more; a second signal cuts them off at once), event streams end, status 0.
            """,
        options: [listen, adminToken, threads, connections, maxConnections, clientConnections, heartbeat],
        action: { try run($0) })

    /// How long requests in flight get to finish once a stop is asked for.
    static let stopDeadline = Duration.seconds(10)

    /// How often a server on a SQLite file looks whether the file was deleted or replaced.
    static let storePollInterval = Duration.seconds(1)

    /// Serves until SIGINT, SIGTERM or SIGHUP, which all stop it cleanly: a closed terminal or an
    /// ended SSH session ends the server as Ctrl-C would, with the store file left whole.
    ///
    /// The signals are blocked before anything starts a thread (the store's connections, the
    /// server's pool, the event watcher), so every thread inherits the mask and this thread
    /// alone takes them, with `sigwait`.
    static func run(_ runner: CommandRunner) throws {
        let signals = BlockedSignals([SIGINT, SIGTERM, SIGHUP])
        defer { signals.restore() }
        let (host, port) = try address(try runner[listen], runner)
        let threads = try runner[threads]
        let stderr = LogLines(descriptor: 2)
        var configuration = CartHTTPConfiguration(
            host: host, port: port, adminToken: try token(runner), threads: threads,
            streamHeartbeatInterval: .seconds(try runner[heartbeat]),
            // An error line may quote what a client sent or another client stored: escaped, it
            // stays one line without terminal escapes, as access lines are.
            accessLog: { line in stderr.send(line) }, errorLog: { line in stderr.send("error: " + DisplayText.escaped(line)) },
            noticeLog: { line in stderr.send("Note: " + DisplayText.escaped(line)) })
        configuration.maxConnections = try runner[maxConnections]
        configuration.maxConnectionsPerIP = try runner[clientConnections]
        do {
            try configuration.validate()
        } catch .server(let error) {
            // A host that does not resolve, which a token would not mend: refused as a server
            // with a token refuses it.
            throw try cannotServe(error, runner)
        } catch {
            throw usageError(error, runner)
        }
        // One connection a request thread, and one for the event streams' watcher.
        let connections = try runner[connections] ?? threads + 1
        let options = StoreOptions(busyTimeout: runner.busyTimeout, createIfMissing: false, maximumConnections: connections)
        let repository: any CartRepository
        do {
            repository = try Stores.registry.open(runner.location, options: options)
        } catch StoreLocationError.noStore {
            // A new shop may start empty and be filled over HTTP; a mistyped --db is told apart
            // by this line. A server that cannot listen (the port is in use) makes no store.
            do throws(CartHTTPServerError) {
                try CartHTTPServer.checkAddress(of: configuration)
            } catch .server(let error) {
                throw try cannotServe(error, runner)
            } catch {
                throw usageError(error, runner)
            }
            if try runner.createStore() {
                stderr.send(
                    "Note: there was no store at '\(DisplayText.escaped(runner.displayLocation))'\(runner.memoryHint); "
                        + "serving a new, empty one.")
            }
            repository = try Stores.registry.open(runner.location, options: options)
        }
        // A store this process cannot write would serve reads, and answer every change with a
        // 503 that invites retrying for ever: refused before the server listens. One that
        // another process is writing now (a long import) can be written, and is served.
        do {
            try repository.write { _ in }
        } catch where ErrorCategory(of: error) == .unavailable {}
        // A unit that writes nothing commits on a PostgreSQL standby too, which refuses only
        // the writes themselves.
        try repository.checkWritable()
        let service = CartService(repository: repository)
        configuration.cartIDKey = CartIDKey(storeSecret: try service.storeSecret())
        configuration.storeKind = try Stores.registry.backend(for: runner.location).kind
        let server: CartHTTPServer
        do {
            server = try CartHTTPServer(service: service, configuration: configuration)
        } catch .server(let error) {
            throw try cannotServe(error, runner)
        } catch {
            throw usageError(error, runner)
        }
        // The log names what it is the log of: a store chosen by CART_DB shows nowhere else.
        stderr.send(
            "Serving the \(configuration.storeKind) store '\(DisplayText.escaped(runner.displayLocation))'.")
        // Said as the server starts, in the log's form, so that nobody fills a store that
        // keeps nothing unaware.
        if let note = runner.takeMemoryStoreNote() { stderr.send(note) }
        if runner.json {
            try runner.emit(CLIJSON.Listening(url: server.url))
        } else {
            try runner.line("Listening on \(server.url)")
        }
        try runner.stdout.flush()
        if server.host == "0.0.0.0" || server.host == "::" {
            // The one stdout line names the address listened on, which is no address to give
            // anyone; the note names the one to open here.
            let local = server.host == "::" ? "[::1]" : "127.0.0.1"
            stderr.send("Note: listening on every interface; from this machine, open http://\(local):\(server.port).")
        }
        // A SQLite file can be deleted or replaced under a running server (a backup restored):
        // a poll notices it within a second, whether or not a client polls.
        let poller =
            repository is SQLiteCartRepository
            ? StorePoller(
                repository: repository, every: storePollInterval,
                failed: { line in stderr.send("error: " + DisplayText.escaped(line)) },
                recovered: { line in stderr.send("Note: " + line) })
            : nil
        defer { poller?.stop() }
        _ = signals.wait()
        switch stop(server, signals: signals) {
        case .finished:
            break
        case .deadlinePassed:
            stderr.send("error: requests still running \(stopDeadline) after the stop was asked for were cut off")
            return
        case .signalled:
            stderr.send("error: a second signal cut off the requests still running")
            return
        }
        // The process ends without closing its connections, which would have copied the
        // write-ahead log into the file: a copy of the file alone would miss recent changes.
        do {
            try (repository as? SQLiteCartRepository)?.checkpoint()
        } catch {
            stderr.send("error: the latest changes stay in the write-ahead log beside the store file: \(error)")
        }
    }

    /// How a stop ended.
    private enum StopOutcome {
        /// Every request in flight finished.
        case finished
        /// Requests still ran at `stopDeadline`, and were cut off.
        case deadlinePassed
        /// A second signal came before they finished, and cut them off.
        case signalled
    }

    /// Stops `server`, giving requests in flight until `stopDeadline`, or until one more of
    /// `signals` arrives while one is: an operator who presses Ctrl-C again wants the process
    /// gone now. The
    /// server waits for a handler still running at its deadline (one waiting on a store that
    /// does not answer, for as long as the store's timeouts allow); the command does not: it
    /// returns a moment later, and the process ends with that request unanswered and its unit
    /// uncommitted.
    private static func stop(_ server: CartHTTPServer, signals: BlockedSignals) -> StopOutcome {
        let outcome = Mutex<StopOutcome?>(nil)
        let ended = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            let finished = server.stop(deadline: stopDeadline)
            outcome.withLock { $0 = $0 ?? (finished ? .finished : .deadlinePassed) }
            ended.signal()
        }
        // Waits for the rest of the process's life if no second signal comes. A signal while
        // nothing is in flight cuts nothing off, and the stop goes on to its checkpoint:
        // `timeout`, for one, sends its signal to the process and then to its process group,
        // so the server gets it twice.
        DispatchQueue.global().async {
            repeat { _ = signals.wait() } while !server.hasRequestsInFlight
            outcome.withLock { $0 = $0 ?? .signalled }
            ended.signal()
        }
        // Two seconds past the deadline let the server close what is left and join its threads.
        let wait = DispatchTimeInterval.seconds(Int(stopDeadline.components.seconds) + 2)
        guard ended.wait(timeout: .now() + wait) == .success else { return .deadlinePassed }
        return outcome.withLock { $0 } ?? .deadlinePassed
    }

    /// The host and port of `text`: `HOST:PORT`, with an IPv6 address in brackets.
    ///
    /// - Throws: `UsageError` naming the option, or its variable when the value came from there.
    static func address(_ text: String, _ runner: CommandRunner) throws(UsageError) -> (String, UInt16) {
        func refuse(_ reason: String) -> UsageError {
            UsageError(
                "The value '\(DisplayText.clean(text))' is invalid for \(runner.label(of: listen)): \(reason).",
                command: runner.invocation.command)
        }
        // A URL copied from the `Listening on` line: its scheme's colon would read as the port's
        // or as an IPv6 address's.
        if text.contains("://") {
            throw refuse("give the host and port alone, without a scheme such as http://, as in 127.0.0.1:8080")
        }
        // An IPv6 address alone (`[::1]`) holds colons, but no port after its bracket.
        guard let colon = text.lastIndex(of: ":"), !text.hasSuffix("]") else {
            throw refuse("give a host and a port, such as 127.0.0.1:8080 or [::1]:8080")
        }
        let host = String(text[..<colon])
        let digits = text[text.index(after: colon)...]
        // Digits only: UInt16 would also take a sign (`:+8080`, `:-0`).
        guard !digits.isEmpty, digits.utf8.count <= 5, digits.utf8.allSatisfy({ (0x30...0x39).contains($0) }),
            let port = UInt16(digits)
        else {
            throw refuse("the port must be a number from 0 to 65535")
        }
        guard !host.isEmpty else { throw refuse("give a host before the port, such as 127.0.0.1, or 0.0.0.0 with an admin token") }
        // No host name or address holds white space; a port with it is refused above.
        guard !host.contains(where: \.isWhitespace) else { throw refuse("the host has white space in it") }
        if host.hasPrefix("[") != host.hasSuffix("]") || (!host.hasPrefix("[") && host.contains(":")) {
            throw refuse("write an IPv6 address in brackets, such as [::1]:8080")
        }
        return (host, port)
    }

    /// The admin token, if one is given. An empty `CART_ADMIN_TOKEN` is refused, not read as no
    /// token as other empty variables are: a deployment whose secret failed to fill it in would
    /// otherwise open every admin route to whatever reaches the loopback address, such as a
    /// proxy in front.
    private static func token(_ runner: CommandRunner) throws -> String? {
        if !runner.isGiven(adminToken), let variable = adminToken.spec.environment, runner.environment[variable] == "" {
            throw UsageError(
                "\(variable) is set but empty: give a token of at least 16 characters, or unset it to serve "
                    + "without one (on loopback only).",
                command: runner.invocation.command)
        }
        return try runner[adminToken]
    }

    /// The failure of a server that cannot listen where it was told (the port is in use).
    private static func cannotServe(_ reason: any Error, _ runner: CommandRunner) throws -> CommandFailure {
        let inUse = "\(reason)".hasSuffix("Address already in use")
        let next = inUse ? "; stop what listens there, or choose another port with \(runner.label(of: listen)) (port 0 picks a free one)" : ""
        return CommandFailure("Cannot serve on \(DisplayText.clean(try runner[listen])): \(reason)\(next).")
    }

    /// What the configuration's refusal means for the command line: a usage error (64).
    private static func usageError(_ error: CartHTTPServerError, _ runner: CommandRunner) -> UsageError {
        let message: String
        switch error {
        case .adminTokenRequired(let host):
            message = "Listening on '\(DisplayText.clean(host))', beyond loopback, needs an admin token: set "
                + "CART_ADMIN_TOKEN (or --admin-token), or listen on 127.0.0.1."
        case .invalidAdminToken(let reason):
            message = "The admin token from \(runner.label(of: adminToken)) is not usable: \(reason)."
        case .server(let error):
            message = "\(error)."
        }
        return UsageError(message, command: runner.invocation.command)
    }
}
