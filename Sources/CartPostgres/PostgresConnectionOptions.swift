#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// How a connection is opened and what its session is set to: timeouts that keep a client
/// from hanging on a server or network that stopped answering, and its application name.
///
/// The location takes precedence over these defaults (`?connect_timeout=3`,
/// `?application_name=…`), and so do the `PG*` environment variables libpq reads for what the
/// location leaves out (`PGCONNECT_TIMEOUT`, `PGAPPNAME`). Session settings (`statementTimeout`
/// and the others) go to the server as `-c` options ahead of the location's own `options` (or
/// `PGOPTIONS`), so `?options=-c%20statement_timeout%3D0` overrides them too.
public struct PostgresConnectionOptions: Sendable, Hashable {
    /// How long opening a connection may take, per host tried (libpq's `connect_timeout`,
    /// whole seconds, at least 2).
    public var connectTimeout: Duration = .seconds(10)
    /// How long a TCP connection may stay silent before keepalive probes start.
    public var keepaliveIdle: Duration = .seconds(10)
    /// The time between keepalive probes.
    public var keepaliveInterval: Duration = .seconds(5)
    /// How many unanswered keepalive probes end the connection.
    public var keepaliveCount: Int = 3
    /// How long sent data may stay unacknowledged before the TCP connection ends
    /// (`TCP_USER_TIMEOUT`): what ends a statement whose server vanished mid-request, which
    /// keepalives alone do not. `nil` leaves the system default (many minutes).
    public var tcpUserTimeout: Duration? = .seconds(30)
    /// The name the server shows for the session (`pg_stat_activity.application_name`).
    public var applicationName: String = "cart"
    /// The longest a statement may run before the server cancels it (57014); `nil` leaves
    /// the server's setting.
    public var statementTimeout: Duration?
    /// The longest a statement may wait for a lock (55P03); `nil` leaves the server's
    /// setting, and `.zero`, as PostgreSQL reads it, sets no limit.
    public var lockTimeout: Duration?
    /// How long a session may sit idle inside an open transaction, holding its locks, before
    /// the server ends it; `nil` leaves the server's setting.
    public var idleInTransactionSessionTimeout: Duration?
    /// How long the client waits for the server's answer to a request before it gives the
    /// connection up as lost: what ends a wait on a server that is stopped, or cut off in a way
    /// the kernel does not see, which neither keepalives nor `tcpUserTimeout` notice (the
    /// kernel still acknowledges). Set it longer than `statementTimeout`, so that the server
    /// ends a slow statement first; a connection raises it past a longer `statement_timeout`
    /// that the location sets, and waits without a limit where the location sets none (0). It
    /// bounds the requests of `execute` and of units, not `executeScript`. `nil` waits as long
    /// as it takes.
    public var responseTimeout: Duration?

    /// The defaults.
    public init() {}

    /// The session settings, as the `-c NAME=VALUE` options libpq's `options` keyword sends
    /// to the server: `["-c statement_timeout=65000", …]`, milliseconds, none for a `nil`
    /// setting. Another client (pgbench, say) given these runs its sessions as the
    /// repository does.
    public var serverOptions: [String] {
        [
            ("statement_timeout", statementTimeout), ("lock_timeout", lockTimeout),
            ("idle_in_transaction_session_timeout", idleInTransactionSessionTimeout),
        ].compactMap { name, duration in duration.map { "-c \(name)=\($0.roundedUpMilliseconds)" } }
    }

    /// The keywords and values for `PQconnectStartParams` with `expand_dbname`: the defaults,
    /// then the location as `dbname` (its settings override those before it), then what
    /// must hold whatever the location says.
    func connectionParameters(for location: PostgresLocation) -> [(keyword: String, value: String)] {
        var parameters: [(keyword: String, value: String)] = []
        if getenv("PGCONNECT_TIMEOUT") == nil {
            parameters.append(("connect_timeout", String(max(connectTimeout.roundedUpSeconds, 2))))
        }
        parameters += [
            ("keepalives", "1"),
            ("keepalives_idle", String(max(keepaliveIdle.roundedUpSeconds, 1))),
            ("keepalives_interval", String(max(keepaliveInterval.roundedUpSeconds, 1))),
            ("keepalives_count", String(max(keepaliveCount, 1))),
            ("fallback_application_name", applicationName),
        ]
        if let tcpUserTimeout { parameters.append(("tcp_user_timeout", String(tcpUserTimeout.roundedUpMilliseconds))) }
        parameters.append(("dbname", location.connectionString))
        // Swift strings are UTF-8: text must travel as UTF-8 whatever PGCLIENTENCODING says.
        parameters.append(("client_encoding", "UTF8"))
        let settings = serverOptions
        if !settings.isEmpty {
            let given = givenServerOptions(for: location)
            parameters.append(("options", (settings + [given].compactMap { $0 }).joined(separator: " ")))
        }
        return parameters
    }

    /// The server options the location, or else `PGOPTIONS`, gives: sent after
    /// `serverOptions`, so a setting in both takes the given value.
    func givenServerOptions(for location: PostgresLocation) -> String? {
        location.serverOptions ?? getenv("PGOPTIONS").map { String(cString: $0) }
    }
}
