import CartCore
import CartPostgres
import Foundation

/// The PostgreSQL server the `pg-` workloads run against: fresh schemas in its database for
/// each round, selected through the search path, and what the report says about the server.
final class PostgresBench {
    /// The location given, without a search path of its own.
    let url: String
    private let admin: PostgresConnection

    init(url: String) throws {
        self.url = url
        admin = try PostgresConnection(url)
    }

    /// `url` with `schema` as the search path.
    func url(schema: String) -> String {
        url + (url.contains("?") ? "&" : "?") + "options=-c%20search_path%3D" + schema
    }

    /// The `-c` options of the repository's sessions with the default busy timeout.
    static let sessionSettings = PostgresCartRepository.connectionOptions(busyTimeout: StoreOptions().busyTimeout).serverOptions

    /// `url(schema:)` with the session settings the repository gives its connections (its
    /// statement, lock and idle-in-transaction timeouts), for the raw C client and pgbench:
    /// the server then runs the same sessions for both sides of a comparison.
    func baselineURL(schema: String) -> String {
        let options = (["-c search_path=" + schema] + Self.sessionSettings).joined(separator: " ")
        return url + (url.contains("?") ? "&" : "?") + "options="
            + options.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
    }

    /// Drops `schema` if it exists and creates it empty; returns its location.
    func freshSchema(_ schema: String) throws -> String {
        try drop(schema)
        try admin.executeScript("CREATE SCHEMA " + schema)
        return url(schema: schema)
    }

    /// Whether `schema` exists.
    func exists(_ schema: String) throws -> Bool {
        try admin.execute("SELECT EXISTS (SELECT FROM pg_namespace WHERE nspname = $1)", [.text(schema)])[0].bool(0)
    }

    func drop(_ schema: String) throws {
        try admin.executeScript("DROP SCHEMA IF EXISTS " + schema + " CASCADE")
    }

    /// Vacuums and analyzes `tables` of `schema`, one statement each (VACUUM refuses to run in
    /// a transaction, and a script is one).
    func vacuum(_ schema: String, tables: [String]) throws {
        for table in tables { try admin.executeScript("VACUUM (ANALYZE) " + schema + "." + table) }
    }

    /// The server settings that decide the figures: `fsync off, synchronous_commit on, …`.
    func settings() throws -> String {
        let row = try admin.execute(
            PostgresSQL(
                "SELECT current_setting('server_version'), current_setting('fsync'), current_setting('synchronous_commit'), "
                    + "current_setting('shared_buffers'), coalesce(inet_server_addr()::text, 'Unix socket')"))[0]
        return "PostgreSQL \(try row.string(0)), fsync \(try row.string(1)), synchronous_commit \(try row.string(2)), "
            + "shared_buffers \(try row.string(3)), \(try row.string(4)), sessions on both sides "
            + Self.sessionSettings.joined(separator: " ")
    }
}
