import CartCore
import CartPostgres
import Foundation
import Testing

/// Locations and stores a repository must refuse: each with one clear line, the right
/// category, and nothing written.
@Suite("PostgreSQL repository refusing what it cannot use")
struct PostgresOpeningTests {
    /// Expects opening `url` to fail with an error of `category` whose description is one line
    /// free of `secret`, and returns the error.
    @discardableResult
    func expectRefused(
        _ url: String, _ category: ErrorCategory, hiding secret: String? = nil, options: StoreOptions = StoreOptions(),
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> (any Error)? {
        let error = #expect(throws: (any Error).self, sourceLocation: sourceLocation) {
            try PostgresCartRepository(url: url, options: options)
        }
        guard let error else { return nil }
        let text = String(describing: error)
        #expect(ErrorCategory(of: error) == category, "\(text)", sourceLocation: sourceLocation)
        #expect(!text.contains("\n"), "one line: \(text)", sourceLocation: sourceLocation)
        if let secret { #expect(!text.contains(secret), "no password: \(text)", sourceLocation: sourceLocation) }
        return error
    }

    @Test("a malformed URL is invalid input, named with its password masked")
    func malformedURL() {
        let error = expectRefused("postgresql://shop:s3cret@db.example:notaport/shop", .invalidInput, hiding: "s3cret")
        #expect(String(describing: error).contains("postgresql://shop:***@db.example:notaport/shop"))
        expectRefused("postgresql://shop:s3cret@db.example/shop?nonsense=1", .invalidInput, hiding: "s3cret")
        // libpq would take `cret@db.example` for the host, and show it.
        let unencoded = expectRefused("postgresql://shop:s3@cret@db.example/shop", .invalidInput, hiding: "cret")
        #expect(String(describing: unencoded).contains("postgresql://shop:***@db.example/shop"))
        #expect((unencoded as? any CategorizedError)?.reason?.contains("%40") == true)
        // A `/` or `?` would end the authority inside the password; libpq would read its start
        // as a port and quote it.
        for (url, shown) in [
            ("postgresql://shop:ab/cd+ef==@db.example:5432/shop", "postgresql://shop:***@db.example:5432/shop"),
            ("postgres://shop:Sup3r?S3cret@db.example/shop", "postgres://shop:***@db.example/shop"),
            ("postgresql://shop:/cret@db.example/shop", "postgresql://shop:***@db.example/shop"),
        ] {
            let split = expectRefused(url, .invalidInput, hiding: "cret")
            #expect(String(describing: split).contains(shown), "\(String(describing: split))")
            #expect(!String(describing: split).contains("ab/") && !String(describing: split).contains("Sup3r"))
            #expect((split as? any CategorizedError)?.reason?.contains("%2F") == true)
        }
    }

    @Test("a bad percent-escape in the password is named as the password's, which stays masked")
    func badEscapeInPassword() {
        let error = expectRefused("postgresql://shop:p%40ss%zz@db.example/shop", .invalidInput, hiding: "p%40ss")
        #expect(
            (error as? any CategorizedError)?.reason
                == "it is not a valid PostgreSQL location (the password holds a % not followed by two hex digits; "
                + "a % itself is written %25)")
    }

    @Test("a port, IPv6 host or query with an @ is no password with a / in it")
    func notASplitPassword() throws {
        for url in [
            "postgresql://db.example:5432/shop?user=a@b", "postgresql://[::1]:5432/shop?application_name=a@b",
            "postgresql://db.example:5432,replica:5433/shop?user=a@b", "postgresql:///shop?user=a@b",
        ] {
            #expect(PostgresLocation.redacted(url) == url)
            _ = try PostgresLocation(url)
        }
    }

    @Test("a wrong password is a storage failure, and the password appears nowhere", TestServer.requires(TestServer.passwordURL))
    func wrongPassword() throws {
        let url = try TestServer.value(TestServer.passwordURL).replacing("cart-password", with: "not-the-password")
        let error = expectRefused(url, .storageFailure, hiding: "not-the-password")
        #expect(String(describing: error).contains("password authentication failed"))
        #expect(
            (error as? any CategorizedError)?.reason
                == "the server refused the credentials (password authentication failed for user \"cart_password\")")
    }

    @Test("an unreachable server is unavailable")
    func unreachable() {
        let error = expectRefused("postgresql://cart@127.0.0.1:1/cart?connect_timeout=2", .unavailable)
        #expect(String(describing: error).contains("127.0.0.1"))
        // Connection refused, or a timeout when something that is not PostgreSQL listens there.
        #expect((error as? any CategorizedError)?.reason?.hasPrefix("the server cannot be reached (") == true)
    }

    @Test("a socket directory without a server: the reason names the socket, which the location may not show")
    func missingSocket() {
        let error = expectRefused("postgresql:///cart?host=/nonexistent-cart-dir&port=5432&connect_timeout=2", .unavailable)
        #expect(
            (error as? any CategorizedError)?.reason
                == "the server cannot be reached (no such file or directory at /nonexistent-cart-dir/.s.PGSQL.5432)")
    }

    @Test("a session kind the server cannot give is a storage failure, not an outage worth retrying", TestServer.requires())
    func unmetSessionSetting() throws {
        let url = try TestServer.value(TestServer.url)
        for (setting, cause) in [
            ("target_session_attrs=standby", "server is not in hot standby mode"),
            ("target_session_attrs=read-only", "session is not read-only"),
            // Settings the server refuses at every try: exit 1, not 75, so no retry loop spins.
            ("options=-c%20nosuch_parameter%3D1", "unrecognized configuration parameter \"nosuch_parameter\""),
            ("options=-c%20statement_timeout%3Dbogus", "invalid value for parameter \"statement_timeout\": \"bogus\""),
        ] {
            let error = expectRefused(url + (url.contains("?") ? "&" : "?") + setting, .storageFailure)
            #expect(
                (error as? any CategorizedError)?.reason == "the server cannot meet the location's connection settings (\(cause))",
                "\(setting)")
        }
    }

    @Test("a service no service file defines is invalid input", TestServer.requires())
    func unknownService() throws {
        let url = try TestServer.value(TestServer.url)
        let error = expectRefused(url + (url.contains("?") ? "&" : "?") + "service=cart_no_such_service", .invalidInput)
        #expect((error as? any CategorizedError)?.reason?.contains("cart_no_such_service") == true, "\(String(describing: error))")
    }

    @Test("a database that does not exist is a storage failure", TestServer.requires())
    func unknownDatabase() throws {
        let url = try TestServer.value(TestServer.url).replacing("/cart_test", with: "/no_such_database")
        let error = expectRefused(url, .storageFailure)
        #expect(String(describing: error).contains("no_such_database"))
    }

    @Test("a search path naming no schema is refused before anything is created", TestServer.requires())
    func noSchema() throws {
        let url = TestSchema.url(try TestServer.value(TestServer.url), searchPath: "cart_no_such_schema")
        let error = expectRefused(url, .storageFailure)
        #expect(error as? PostgresStoreError == .noSchema(location: try PostgresLocation(url).redacted))
    }

    @Test("an empty schema is not created when creating is not allowed", TestServer.requires())
    func noStore() throws {
        let schema = try TestSchema()
        defer { try? schema.drop() }
        let error = expectRefused(schema.url, .notFound, options: StoreOptions(createIfMissing: false))
        #expect(error is StoreLocationError)
        #expect(try schema.tables() == [])
    }

    @Test("another application's tables are refused and left alone", TestServer.requires())
    func foreignTables() throws {
        let schema = try TestSchema()
        defer { try? schema.drop() }
        try schema.execute("CREATE TABLE accounts (id integer PRIMARY KEY)")
        let error = expectRefused(schema.url, .incompatibleStore)
        #expect(error as? MigrationError == .foreignDatabase)
        #expect(try schema.tables() == ["accounts"])
        // Another tool's record table, with other columns, is another application's too.
        try schema.execute("CREATE TABLE schema_migrations (version text)")
        #expect(expectRefused(schema.url, .incompatibleStore) as? MigrationError == .foreignDatabase)
    }

    @Test("a store written by a newer build, or with a changed migration, is refused and left as it is", TestServer.requires())
    func newerOrChangedSchema() throws {
        let schema = try TestSchema()
        defer { try? schema.drop() }
        _ = try schema.repository()
        try schema.execute("INSERT INTO schema_migrations VALUES (99, '0099_from_the_future', 'abc', 0)")
        let tables = try schema.tables()
        let newer = expectRefused(schema.url, .incompatibleStore)
        #expect(newer as? MigrationError == .unknownMigrations(["0099_from_the_future"]))
        #expect(try schema.tables() == tables)
        #expect(try schema.execute("SELECT count(*) FROM schema_migrations")[0].int(0) == 4)

        try schema.execute("DELETE FROM schema_migrations WHERE number = 99")
        try schema.execute("UPDATE schema_migrations SET checksum = 'edited' WHERE number = 1")
        let changed = expectRefused(schema.url, .incompatibleStore)
        #expect(changed as? MigrationError == .checksumMismatch(name: "0001_initial_schema"))
    }
}

extension TestSchema {
    /// The tables of the schema, by name.
    func tables() throws -> [String] {
        try execute("SELECT tablename::text FROM pg_tables WHERE schemaname = current_schema() ORDER BY 1").map { try $0.string(0) }
    }
}
