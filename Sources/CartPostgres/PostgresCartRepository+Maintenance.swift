#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
public import CartCore

extension PostgresCartRepository: StoreMaintenance {
    private static let selectDetails: PostgresSQL =
        """
        SELECT current_setting('server_version'), current_database(), coalesce(current_schema(), ''),
            (SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()),
            current_setting('max_connections')::integer
        """

    /// The schema version, the migrations applied and pending, and the server's version, the
    /// database, the schema, the connections open to the database (every client's, this one's
    /// included) and the server's limit; the location with its password masked.
    ///
    /// - Throws: `MigrationError` for a schema this build must not use, or `PostgresError`.
    public func status() throws -> StoreStatus {
        try pool.withConnection { connection in
            let applied = try PostgresMigrator.shipped.survey(connection).applied
            guard let row = try connection.execute(Self.selectDetails).first else {
                throw PostgresError(kind: .unexpectedResult, message: "no server details", sql: Self.selectDetails.text)
            }
            return StoreStatus(
                kind: PostgresStoreBackend.kind, location: location.redacted, schemaVersion: applied.count,
                appliedMigrations: applied,
                pendingMigrations: PostgresMigrator.shipped.plan.pending(after: applied).map(\.name),
                details: [
                    StoreStatus.Detail(key: "serverVersion", label: "Server version", value: try row.string(0)),
                    StoreStatus.Detail(key: "database", label: "Database", value: try row.string(1)),
                    StoreStatus.Detail(key: "schema", label: "PostgreSQL schema", value: try row.string(2)),
                    StoreStatus.Detail(key: "openConnections", label: "Connections open", number: try row.int(3)),
                    StoreStatus.Detail(key: "maxConnections", label: "Server's connection limit", number: try row.int(4)),
                ])
        }
    }

    /// Applies pending migrations in one transaction; a new store gets the repository's
    /// initial settings.
    ///
    /// - Returns: the names of the migrations applied now; empty when up to date.
    /// - Throws: `MigrationError`, `PostgresStoreError.noSchema`, or `PostgresError`.
    @discardableResult
    public func migrate() throws -> [String] {
        try pool.withConnection { connection in
            try PostgresMigrator.shipped.migrate(connection, location: location, initialSettings: initialSettings, now: Date())
        }
    }

    /// Compares the schema with what its applied migrations make (`PostgresSchemaCheck`), then
    /// looks, in one snapshot, for what the schema's constraints should have kept out and
    /// another client may have let in (with a constraint dropped, made NOT VALID, or its
    /// trigger disabled): rows that break a CHECK, rows that reference nothing, carts whose
    /// line summary does not match their lines, orders whose totals are not their lines',
    /// and an order counter out of step with the orders; and a missing settings row, which
    /// no constraint keeps out.
    ///
    /// - Returns: one line per problem; empty for a healthy store.
    /// - Throws: `MigrationError` for a record of migrations this build does not recognize, or
    ///   `PostgresError`.
    public func check() throws -> [String] {
        try pool.withConnection { connection in
            let schema = try PostgresSchemaCheck(connection: connection).problems()
            let rows = {
                try connection.transaction(.repeatableRead, readOnly: true) {
                    try PostgresStoreCheck(connection: connection).problems()
                }
            }
            // A changed schema may lack a table or column that the row queries read.
            guard schema.isEmpty else { return schema + ((try? rows()) ?? []) }
            return try rows()
        }
    }

    /// The tables, columns, indexes, constraints, triggers and functions that are missing or
    /// not as the applied migrations made them (`PostgresSchemaCheck`), without the rows.
    ///
    /// - Returns: one line per difference; empty when the schema is as the migrations made
    ///   it, and where no scratch schema can be made to compare it (a standby).
    /// - Throws: `MigrationError` for a record of migrations this build does not recognize, or
    ///   `PostgresError`.
    public func schemaDifferences() throws -> [String] {
        try pool.withConnection { connection in
            guard case .compared(let differences) = try PostgresSchemaCheck(connection: connection).comparison() else {
                return []
            }
            return differences
        }
    }
}

extension PostgresCartRepository {
    /// Opens PostgreSQL stores through a `StoreRegistry`: `postgresql://…` and `postgres://…`
    /// locations.
    public static let backend: any StoreBackend = PostgresStoreBackend()
}
