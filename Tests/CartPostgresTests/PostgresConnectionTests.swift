import CartCore
import CartPostgres
import Foundation
import Synchronization
import Testing

@Suite("PostgreSQL connections")
struct PostgresConnectionTests {
    @Test("a connection to the configured server runs a query", TestServer.requires())
    func connects() throws {
        let connection = try TestServer.connect()
        #expect(connection.isOpen)
        #expect(connection.serverVersion >= 150000)
        #expect(connection.transactionStatus == .idle)
        #expect(try connection.execute("SELECT 1 + 1")[0].int64(0) == 2)
        #expect(try connection.execute("SHOW application_name")[0].string(0) == "cart")
        #expect(try connection.execute("SHOW client_encoding")[0].string(0) == "UTF8")
    }

    @Test("a statement the server forgot fails once, and the connection is not used again", TestServer.requires())
    func forgottenStatement() throws {
        let connection = try TestServer.connect()
        #expect(try connection.execute("SELECT 1 + 1")[0].int64(0) == 2)
        // What a pooler in transaction mode or a `DISCARD ALL` does behind the client's back.
        try connection.executeScript("DEALLOCATE ALL")
        let error = #expect(throws: PostgresError.self) { try connection.execute("SELECT 1 + 1") }
        #expect(error?.sqlState == "26000")
        #expect(!connection.isOpen)
    }

    @Test("an unreachable server gives one line with the password masked", arguments: [
        "postgresql://cart:s3cret@%2Fnonexistent-cart-socket-dir:5432/shop",
        "postgresql://cart:s3cret@127.0.0.1:1/shop?connect_timeout=2",
    ])
    func unreachable(url: String) throws {
        let error = #expect(throws: PostgresError.self) { try PostgresConnection(url) }
        #expect(error?.kind == .connection)
        #expect(error?.isConnectionFailure == true)
        #expect(error?.isAuthenticationFailure == false)
        let description = error?.description ?? ""
        #expect(!description.contains("s3cret"))
        #expect(!description.contains("\n"))
        #expect(description.contains("could not connect to postgresql://cart:***@"))
    }

    @Test("settings libpq refuses before it connects keep its reason, for one host or several")
    func refusedSettings() throws {
        for (url, reason) in [
            ("postgresql://cart@127.0.0.1,127.0.0.2/shop?port=1,2,3", "could not match 3 port numbers to 2 hosts"),
            ("postgresql://cart@127.0.0.1/shop?target_session_attrs=bogus", "target_session_attrs"),
            ("postgresql://cart@127.0.0.1,127.0.0.2/shop?target_session_attrs=bogus", "target_session_attrs"),
        ] {
            let error = #expect(throws: PostgresError.self, "\(url)") { try PostgresConnection(url) }
            #expect(error?.kind == .connection, "\(url)")
            #expect(error?.description.contains(reason) == true, "\(url): \(error.map { "\($0)" } ?? "")")
        }
    }

    @Test("a location listing a host that hangs first fails over to the next, as libpq's own connect does", TestServer.requires())
    func failoverPastSilentHost() throws {
        let listener = try SilentListener()
        let url = try TestServer.value(TestServer.url)
        let at = try #require(url.firstIndex(of: "@"))
        let location = url[...at] + "127.0.0.1:\(listener.port)," + url[url.index(after: at)...]
        let started = ContinuousClock.now
        let connection = try PostgresConnection(String(location) + (location.contains("?") ? "&" : "?") + "connect_timeout=2")
        #expect(try connection.execute("SELECT 1")[0].int64(0) == 1)
        // The silent host's 2 s, then the server; a bound on a hang, not a measure of speed.
        #expect(ContinuousClock.now - started >= .seconds(2))
        #expect(ContinuousClock.now - started < .seconds(30))
    }

    @Test("a wrong password gives one line that masks it", TestServer.requires(TestServer.passwordURL))
    func wrongPassword() throws {
        let url = try TestServer.value(TestServer.passwordURL)
        #expect(try PostgresConnection(url).isOpen)
        let wrong = try #require(url.firstRange(of: #/:[^:/@]*@/#)).lowerBound
        let wrongURL = url[..<wrong] + ":wrong-password-42@" + url[url.index(after: try #require(url.firstIndex(of: "@")))...]
        let error = #expect(throws: PostgresError.self) { try PostgresConnection(String(wrongURL)) }
        #expect(error?.isAuthenticationFailure == true)
        #expect(error?.isConnectionFailure == true)
        let description = error?.description ?? ""
        #expect(!description.contains("wrong-password-42"))
        #expect(!description.contains("\n"))
        #expect(description.contains(":***@"))
        #expect(description.contains("password authentication failed"))
    }

    @Test("an unknown database is told apart", TestServer.requires())
    func unknownDatabase() throws {
        let url = try TestServer.value(TestServer.url)
        let slash = try #require(url.lastIndex(of: "/"))
        let error = #expect(throws: PostgresError.self) {
            try PostgresConnection(url[...slash] + "no_such_database_42")
        }
        #expect(error?.isUndefinedDatabase == true)
        #expect(error?.isAuthenticationFailure == false)
    }

    @Test("parameter values come back as they were sent", TestServer.requires())
    func parameterRoundTrip() throws {
        let connection = try TestServer.connect()
        let texts = ["it's \"quoted\" \\ back$1;--", "", "Grüße 🛒 日本語", String(repeating: "x", count: 100_000), " \t\n "]
        for text in texts {
            #expect(try connection.execute("SELECT $1::text", [.text(text)])[0].string(0) == text)
        }
        for integer in [Int64.max, Int64.min, 0, -1, 9, 10, -10, 42, 1_000_000] {
            #expect(try connection.execute("SELECT $1::bigint", [.integer(integer)])[0].int64(0) == integer)
        }
        let row = try connection.execute(
            "SELECT $1::text, $2::bigint, $3::boolean, $4::boolean", [nil, PostgresValue(nil as Int?), true, false])[0]
        #expect(try row.isNull(0))
        #expect(try row.optionalString(0) == nil)
        #expect(try row.optionalInt64(1) == nil)
        #expect(try row.bool(2) == true)
        #expect(try row.bool(3) == false)
        let mixed = try connection.execute(
            "SELECT $1::text, $2::bigint, $3::text, $4::boolean, $5::bigint", ["a", nil, "", true, -7])[0]
        #expect(try mixed.string(0) == "a")
        #expect(try mixed.isNull(1))
        #expect(try mixed.string(2) == "")
        #expect(try mixed.bool(3) == true)
        #expect(try mixed.int64(4) == -7)
    }

    @Test("text holding NUL is refused before anything is sent", TestServer.requires())
    func nulRefused() throws {
        let connection = try TestServer.connect()
        let error = #expect(throws: PostgresError.self) {
            try connection.execute("SELECT $1::text, $2::text", ["fine", "a\u{0}b"])
        }
        #expect(error?.kind == .invalidArgument)
        #expect(error?.message.contains("$2") == true)
        #expect(error?.message.contains("NUL") == true)
        let inSQL = #expect(throws: PostgresError.self) { try connection.execute("SELECT 1\u{0}; DROP TABLE x") }
        #expect(inSQL?.kind == .invalidArgument)
        #expect(try connection.execute("SELECT 1")[0].int(0) == 1)
    }

    @Test("values of the wrong type, NULLs and out-of-range integers throw", TestServer.requires())
    func readerChecks() throws {
        let connection = try TestServer.connect()
        let row = try connection.execute(
            PostgresSQL(
                "SELECT 'x'::text AS name, NULL::bigint AS missing, 1.5::numeric AS fraction,"
                    + " 9223372036854775808::numeric AS huge, sum(v) AS total, 7::int4 AS small"
                    + " FROM (VALUES (9223372036854775806::bigint), (1::bigint)) AS t (v)"))[0]
        let wrongType = #expect(throws: PostgresError.self) { try row.int64(0) }
        #expect(wrongType?.kind == .unexpectedResult)
        #expect(wrongType?.message == "column 0 (name) is text, not an integer")
        #expect(wrongType?.sql?.hasPrefix("SELECT 'x'") == true)
        let null = #expect(throws: PostgresError.self) { try row.int64(1) }
        #expect(null?.message == "column 1 (missing) is NULL where a value is required")
        let fraction = #expect(throws: PostgresError.self) { try row.int64(2) }
        #expect(fraction?.message == "column 2 (fraction) holds 1.5, which is not a 64-bit integer")
        #expect(throws: PostgresError.self) { try row.int64(3) }
        #expect(throws: PostgresError.self) { try row.string(5) }
        #expect(throws: PostgresError.self) { try row.bool(5) }
        let missing = #expect(throws: PostgresError.self) { try row.int64(6) }
        #expect(missing?.message == "column 6 does not exist: the result has 6 columns")
        #expect(try row.int64(4) == Int64.max)
        #expect(try row.int(5) == 7)
        #expect(try row.optionalInt64(1) == nil)
    }

    @Test("a statement is prepared once per connection and reused", TestServer.requires())
    func preparedOnce() throws {
        let connection = try TestServer.connect()
        let sql: PostgresSQL = "SELECT $1::bigint * 2"
        for value in 1...5 {
            #expect(try connection.execute(sql, [.integer(Int64(value))])[0].int64(0) == Int64(value) * 2)
        }
        let count: PostgresSQL = "SELECT count(*) FROM pg_prepared_statements WHERE statement = $1"
        #expect(try connection.execute(count, [.text(sql.text)])[0].int64(0) == 1)
        #expect(try connection.execute("SELECT count(*) FROM pg_prepared_statements")[0].int64(0) == 3)
    }

    @Test("a statement that fails to prepare is not cached, and works once it can", TestServer.requires())
    func failedPreparation() throws {
        let connection = try TestServer.connect()
        let sql: PostgresSQL = "SELECT count(*) FROM cart_test_later"
        let error = #expect(throws: PostgresError.self) { try connection.execute(sql) }
        #expect(error?.isUndefinedTable == true)
        #expect(error?.description.hasPrefix("PostgreSQL error 42P01: relation \"cart_test_later\" does not exist - while executing SELECT") == true)
        try connection.executeScript("CREATE TEMPORARY TABLE cart_test_later (id bigint)")
        #expect(try connection.execute(sql)[0].int64(0) == 0)
    }

    @Test("server errors carry their SQLSTATE, constraint and SQL", TestServer.requires())
    func serverErrors() throws {
        let connection = try TestServer.connect()
        try connection.executeScript(
            """
            CREATE TEMPORARY TABLE lines (id text PRIMARY KEY, quantity bigint NOT NULL,
                CONSTRAINT quantity_positive CHECK (quantity > 0))
            """)
        try connection.execute("INSERT INTO lines VALUES ($1, $2)", ["a", 1])
        let check = #expect(throws: PostgresError.self) { try connection.execute("INSERT INTO lines VALUES ($1, $2)", ["b", 0]) }
        #expect(check?.isCheckViolation == true)
        #expect(check?.constraint == "quantity_positive")
        #expect(check?.severity == "ERROR")
        #expect(
            check?.description
                == "PostgreSQL error 23514: new row for relation \"lines\" violates check constraint \"quantity_positive\""
                + " - while executing INSERT INTO lines VALUES ($1, $2)")
        let unique = #expect(throws: PostgresError.self) { try connection.execute("INSERT INTO lines VALUES ($1, $2)", ["a", 1]) }
        #expect(unique?.isUniqueViolation == true)
        #expect(unique?.detail == "Key (id)=(a) already exists.")
        let notNull = #expect(throws: PostgresError.self) { try connection.execute("INSERT INTO lines VALUES ($1, $2)", ["c", nil]) }
        #expect(notNull?.isNotNullViolation == true)
        #expect(notNull?.isConnectionFailure == false)
        let arity = #expect(throws: PostgresError.self) { try connection.execute("SELECT $1::int + $2::int", [1]) }
        #expect(arity?.isConnectionFailure == false)
        #expect(try connection.execute("INSERT INTO lines VALUES ($1, $2)", ["d", 4]).affectedRows == 1)
    }

    @Test("NOTICE and WARNING go to the handler, never to stderr", TestServer.requires())
    func noticesStayOffStderr() throws {
        let connection = try TestServer.connect()
        let marker = "cart-notice-\(UUID().uuidString)"
        let sql = "DO $$ BEGIN RAISE NOTICE '\(marker)'; RAISE WARNING '\(marker)'; END $$"
        let printed = try capturingStandardError {
            try connection.executeScript(sql)
            try connection.execute("ROLLBACK")
        }
        #expect(!printed.contains(marker))
        #expect(!printed.contains("no transaction in progress"))
        let notices = Collector<PostgresNotice>()
        connection.noticeHandler = { notices.append($0) }
        try connection.executeScript(sql)
        #expect(notices.all.map(\.severity) == ["NOTICE", "WARNING"])
        #expect(notices.all.allSatisfy { $0.message == marker })
    }

    @Test("session settings from the options merge with the location's own", TestServer.requires())
    func sessionSettings() throws {
        let url = try TestServer.value(TestServer.url)
        let separator = url.contains("?") ? "&" : "?"
        let location = try PostgresLocation(url + separator + "options=-c%20search_path%3Dcart_elsewhere&application_name=cart-tests")
        var options = PostgresConnectionOptions()
        options.statementTimeout = .milliseconds(150)
        options.lockTimeout = .seconds(2)
        let connection = try PostgresConnection(location: location, options: options)
        #expect(try connection.execute("SHOW search_path")[0].string(0) == "cart_elsewhere")
        #expect(try connection.execute("SHOW statement_timeout")[0].string(0) == "150ms")
        #expect(try connection.execute("SHOW lock_timeout")[0].string(0) == "2s")
        #expect(try connection.execute("SHOW application_name")[0].string(0) == "cart-tests")
        let error = #expect(throws: PostgresError.self) { try connection.execute("SELECT pg_sleep(5)") }
        #expect(error?.isQueryCanceled == true)
        #expect(try connection.execute("SELECT 1")[0].int(0) == 1)
    }

    @Test(
        "a connection whose backend is terminated fails clearly and can be reset, with or without a response timeout",
        TestServer.requires(), arguments: [nil, Duration.seconds(5)])
    func terminatedBackend(responseTimeout: Duration?) throws {
        var options = PostgresConnectionOptions()
        options.responseTimeout = responseTimeout
        let victim = try TestServer.connect(options: options)
        try victim.execute("SELECT $1::int", [1])
        try terminate(victim)
        let error = #expect(throws: PostgresError.self) { try victim.execute("SELECT $1::int", [2]) }
        #expect(error?.isConnectionFailure == true)
        #expect(error?.description.contains("is lost") == true)
        #expect(error?.description.contains("\n") == false)
        #expect(error?.reason?.contains("ended the session") == true, "\(String(describing: error?.reason))")
        #expect(!victim.isOpen)
        try victim.reset()
        #expect(try victim.execute("SELECT $1::int", [3])[0].int(0) == 3)
    }

    @Test(
        "a session ended while a pipeline runs fails with the server's reason, with or without a response timeout",
        TestServer.requires(), arguments: [nil, Duration.seconds(5)])
    func terminatedMidPipeline(responseTimeout: Duration?) throws {
        var options = PostgresConnectionOptions()
        options.responseTimeout = responseTimeout
        let victim = try TestServer.connect(options: options)
        // Ended once it is inside the sleep, so the pipeline is mid-flight.
        let error = try endedWhileSleeping(victim) {
            _ = try victim.pipeline([PostgresStatement("SELECT pg_sleep(30)"), PostgresStatement("SELECT $1::int", [1])])
        }
        #expect(error?.isConnectionFailure == true)
        #expect(error?.sqlState == "57P01", "\(String(describing: error))")
        #expect(error?.description.contains("terminating connection due to administrator command") == true, "\(String(describing: error))")
        #expect(error?.reason?.contains("ended the session") == true, "\(String(describing: error?.reason))")
        try victim.reset()
        #expect(try victim.execute("SELECT $1::int", [3])[0].int(0) == 3)
    }

    /// Runs `body` on `victim` while another session ends it once it sleeps in `pg_sleep`,
    /// and returns what `body` threw.
    private func endedWhileSleeping(_ victim: PostgresConnection, _ body: () throws -> Void) throws -> PostgresError? {
        let backend = Int64(victim.backendProcessID)
        let ended = DispatchSemaphore(value: 0)
        let killerFailure = Mutex<String?>(nil)
        DispatchQueue.global().async {
            defer { ended.signal() }
            do {
                let killer = try TestServer.connect()
                for _ in 0..<500 {
                    let sleeping = try killer.execute(
                        "SELECT count(*) FROM pg_stat_activity WHERE pid = $1 AND wait_event = 'PgSleep'", [.integer(backend)])
                    if try sleeping[0].int(0) == 1 {
                        _ = try killer.execute("SELECT pg_terminate_backend($1::int, 10000)", [.integer(backend)])
                        return
                    }
                    usleep(10_000)
                }
                killerFailure.withLock { $0 = "the session never reached pg_sleep" }
            } catch {
                killerFailure.withLock { $0 = "\(error)" }
            }
        }
        let error = #expect(throws: PostgresError.self) { try body() }
        ended.wait()
        #expect(killerFailure.withLock { $0 } == nil)
        return error
    }

    @Test(
        "a session ended while the server runs a transaction's COMMIT leaves the outcome unknown; one ended before it, not",
        TestServer.requires())
    func sessionEndedDuringCommit() throws {
        // A deferred constraint trigger sleeps inside COMMIT.
        let setUp = """
            CREATE TEMP TABLE kept (x int);
            CREATE FUNCTION pg_temp.slow() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN PERFORM pg_sleep(30); RETURN NULL; END $$;
            CREATE CONSTRAINT TRIGGER slow AFTER INSERT ON kept DEFERRABLE INITIALLY DEFERRED
                FOR EACH ROW EXECUTE FUNCTION pg_temp.slow()
            """
        let committing = try TestServer.connect()
        try committing.executeScript(setUp)
        let undecided = try endedWhileSleeping(committing) {
            try committing.transaction { committing.queue("INSERT INTO kept VALUES (1)") }
        }
        #expect(undecided?.kind == .commitOutcomeUnknown, "\(String(describing: undecided))")
        #expect(undecided.map(ErrorCategory.init(of:)) == .outcomeUnknown)
        #expect(
            undecided?.reason == "the server ended the session while the change was being committed, so it may or may not have been saved",
            "\(String(describing: undecided?.reason))")

        // Ended in a statement before the COMMIT, in the same request: nothing was committed.
        let writing = try TestServer.connect()
        let before = try endedWhileSleeping(writing) {
            try writing.transaction { writing.queue("SELECT pg_sleep(30)") }
        }
        #expect(before?.kind != .commitOutcomeUnknown, "\(String(describing: before))")
        #expect(before.map(ErrorCategory.init(of:)) == .unavailable)
    }

    @Test(
        "a server that stops answering is given up after the response timeout, and a fresh connection works",
        TestServer.requires(TestServer.directory))
    func silentServerGivenUp() throws {
        var options = PostgresConnectionOptions()
        options.responseTimeout = .milliseconds(800)
        let victim = try TestServer.connect(options: options)
        #expect(try victim.execute("SELECT $1::int", [1])[0].int(0) == 1)
        let backend = victim.backendProcessID
        // The cluster of scripts/postgres-cluster.sh runs on this machine: its backend is a local process.
        let command = try String(contentsOfFile: "/proc/\(backend)/cmdline", encoding: .utf8)
        try #require(command.hasPrefix("postgres"), "process \(backend) is '\(command)', not a PostgreSQL backend")
        // A stopped backend's socket stays open and the kernel still acknowledges: only the
        // client's own deadline ends the wait.
        try #require(kill(backend, SIGSTOP) == 0, "this test stops the backend process, which needs root or the server's user")
        defer { kill(backend, SIGCONT) }
        let start = ContinuousClock.now
        let error = #expect(throws: PostgresError.self) { try victim.execute("SELECT $1::int", [2]) }
        let waited = ContinuousClock.now - start
        #expect(error.map(ErrorCategory.init(of:)) == .unavailable)
        #expect(error?.description.contains("sent no answer within") == true, "\(String(describing: error))")
        #expect(waited >= .milliseconds(750) && waited < .seconds(10), "\(waited)")
        kill(backend, SIGCONT)
        #expect(try TestServer.connect(options: options).execute("SELECT $1::int", [3])[0].int(0) == 3)
    }

    @Test(
        "the response timeout follows a statement timeout the location sets, and only then asks the server",
        TestServer.requires(),
        arguments: [
            (nil, Duration.seconds(70)), ("-c statement_timeout=0", nil), ("-c statement_timeout=120s", .seconds(125)),
            ("-c statement_timeout=1s", .seconds(70)), ("-c work_mem=8MB", .seconds(70)),
        ] as [(String?, Duration?)])
    func responseTimeoutFollowsLocation(serverOptions: String?, expected: Duration?) throws {
        var location = try TestServer.value(TestServer.url)
        if let serverOptions {
            let encoded = serverOptions.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
            location += (location.contains("?") ? "&" : "?") + "options=" + encoded
        }
        var options = PostgresConnectionOptions()
        options.statementTimeout = .seconds(65)
        options.responseTimeout = .seconds(70)
        let connection = try PostgresConnection(location, options: options)
        #expect(connection.responseTimeout == expected)
        options.responseTimeout = nil
        #expect(try PostgresConnection(location, options: options).responseTimeout == nil)
    }

    @Test("a session ended by the server names a shutdown and an administrator alike; a restart only a restart")
    func endedSessionReason() {
        let ended = PostgresError(
            kind: .server, message: "terminating connection due to administrator command", sqlState: "57P01")
        #expect(ended.reason == "the server ended the session (it is shutting down, or an administrator ended the session)")
        let starting = PostgresError(kind: .server, message: "the database system is starting up", sqlState: "57P03")
        #expect(starting.reason == "the server is shutting down or restarting")
    }

    @Test("a damaged store's error says what is wrong, in the server's or the reader's words")
    func damagedStoreReasons() {
        let check = PostgresError(
            kind: .server, message: "New row for relation \"products\" violates check constraint \"products_name_check\"",
            sqlState: "23514")
        #expect(check.category == .damagedStore)
        #expect(
            check.reason
                == "a row breaks a rule of the schema (new row for relation \"products\" violates check constraint \"products_name_check\")")
        let null = PostgresError(kind: .unexpectedResult, message: "column 3 (price) is NULL where a value is required")
        #expect(null.reason == "a value read back is not what the schema promises (column 3 (price) is NULL where a value is required)")
        let missing = PostgresError(kind: .server, message: "relation \"carts\" does not exist", sqlState: "42P01")
        #expect(missing.reason == "a table or column of the schema is missing (relation \"carts\" does not exist)")
        #expect(PostgresStoreError.missingRow("settings row").reason == "it has no settings row; another client deleted it")
    }

    @Test("an idle connection the server closed is found out without a query", TestServer.requires())
    func idleClosedFoundOut() throws {
        let victim = try TestServer.connect()
        #expect(victim.checkStillOpen())
        let printed = try capturingStandardError { try terminate(victim) }
        #expect(!victim.checkStillOpen())
        #expect(!printed.contains("terminating connection"))
    }
}

/// Ends `connection`'s server session from another connection, and waits until it has ended.
func terminate(_ connection: PostgresConnection) throws {
    let killer = try TestServer.connect()
    #expect(try killer.execute("SELECT pg_terminate_backend($1::int, 10000)", [.integer(Int64(connection.backendProcessID))])[0].bool(0))
}

/// Serialises captures: two at once would each restore the other's file as standard error.
private let standardErrorCapture = Mutex(())

/// What `body` writes to the standard error of this process. Tests running meanwhile write their
/// progress there too, so a caller looks for what only its own code could print.
func capturingStandardError(_ body: () throws -> Void) throws -> String {
    try standardErrorCapture.withLock { _ in try capturingStandardErrorAlone(body) }
}

private func capturingStandardErrorAlone(_ body: () throws -> Void) throws -> String {
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("cart-stderr-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: file) }
    let capture = open(file.path, O_CREAT | O_RDWR | O_TRUNC, 0o600)
    try #require(capture >= 0)
    let saved = dup(2)
    dup2(capture, 2)
    defer {
        dup2(saved, 2)
        close(saved)
        close(capture)
    }
    try body()
    return (try? String(contentsOf: file, encoding: .utf8)) ?? ""
}
