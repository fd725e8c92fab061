import CartCore
import CartPostgres
import Foundation

/// A schema of its own in the test database, for one repository: created empty, dropped when
/// the test is done with it. The location it hands out selects it with
/// `options=-c search_path=…`, so tests in parallel never see each other's stores.
final class TestSchema: Sendable {
    /// The schema's name: `cart_test_` and random hex digits.
    let name: String
    /// `CART_TEST_POSTGRES_URL` (or the variable given) with the schema as its search path.
    let url: String

    /// Creates the schema.
    ///
    /// - Throws: `TestServer.Missing` when the variable is not set, or `PostgresError`.
    init(_ variable: String = TestServer.url) throws {
        name = "cart_test_" + String(UInt64.random(in: 0...UInt64.max), radix: 16)
        url = Self.url(try TestServer.value(variable), searchPath: name)
        let admin = try TestServer.connect()
        // Open to every role, so that the roles of other test locations can use it too.
        try admin.executeScript("CREATE SCHEMA " + name + "; GRANT ALL ON SCHEMA " + name + " TO PUBLIC")
    }

    /// `base` with `options=-c search_path=<schema>` added to its query.
    static func url(_ base: String, searchPath schema: String) -> String {
        base + (base.contains("?") ? "&" : "?") + "options=-c%20search_path%3D" + schema
    }

    /// A repository over the schema.
    func repository(_ options: StoreOptions = StoreOptions()) throws -> PostgresCartRepository {
        try PostgresCartRepository(url: url, options: options)
    }

    /// Runs SQL in the schema, behind the repository's back: as the test role, or as the
    /// cluster's superuser (`postgres`, trusted on the socket of the script's cluster).
    @discardableResult
    func execute(_ sql: PostgresSQL, asSuperuser: Bool = false) throws -> PostgresResult {
        try connect(asSuperuser: asSuperuser).execute(sql)
    }

    /// Runs statements separated by semicolons, as `execute(_:asSuperuser:)` runs one.
    func run(script: String, asSuperuser: Bool = false) throws {
        try connect(asSuperuser: asSuperuser).executeScript(script)
    }

    /// A connection to the schema, as the superuser if asked (on the main test location).
    private func connect(asSuperuser: Bool) throws -> PostgresConnection {
        try PostgresConnection(asSuperuser ? url.replacing("cart_test@", with: "postgres@", maxReplacements: 1) : url)
    }

    /// Drops the schema and everything in it.
    func drop() throws {
        try TestServer.connect().executeScript("DROP SCHEMA IF EXISTS " + name + " CASCADE")
    }
}
