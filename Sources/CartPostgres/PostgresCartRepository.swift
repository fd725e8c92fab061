#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
public import CartCore
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A `CartRepository` in a PostgreSQL database, which many processes on many hosts share.
///
/// The store lives in the first schema of the location's search path (`public` by default;
/// `?options=-c%20search_path%3Dshop` picks another). Opening runs the pending migrations
/// embedded from `Migrations/PostgreSQL/`, once whichever process gets there first, and
/// refuses, before writing anything, a schema written by a newer build, with a changed
/// migration, or holding another application's tables.
///
/// ```swift
/// let repository = try PostgresCartRepository(url: "postgresql://shop@db.internal/shop")
/// let service = CartService(repository: repository)
/// ```
///
/// Units run on a pool of connections (`StoreOptions.maximumConnections`, 4 by default), each
/// unit one transaction: a write unit in READ COMMITTED with every read locking what it
/// returns (see `PostgresCartStorage`), a read unit in one REPEATABLE READ snapshot. A write
/// unit that loses a deadlock, or finds a row it inserts stored by a concurrent unit, is rolled
/// back and run again, a bounded number of times. The server gives up on a lock after the busy
/// timeout and on a statement, or a session idle in a transaction, a minute after that.
public final class PostgresCartRepository: CartRepository, Sendable {
    /// Where the store is; its description masks the password.
    public let location: PostgresLocation
    /// The connections units run on.
    let pool: PostgresConnectionPool
    /// The settings a store created now gets.
    let initialSettings: StoreSettings
    /// The schema the store lives in, which change notifications name.
    let schema: String
    private let changeFeed: PostgresChangeFeed
    /// How many write units this repository committed that changed something.
    private let localCommits = Atomic<Int64>(0)

    /// How many times a unit runs at most when concurrent units keep conflicting with it.
    public static let maximumAttempts = 8
    /// The connections of a pool when the options name no number.
    public static let defaultMaximumConnections = 4
    /// The channel the schema's triggers notify of every committed change, with the schema as
    /// the payload.
    static let changeChannel = "cart_changes"

    /// Opens, and unless `options` say otherwise creates and migrates, the store at `url`: a
    /// libpq connection URI (`postgresql://…` or `postgres://…`) or `keyword=value` string,
    /// completed from the `PG*` environment variables as libpq does.
    ///
    /// - Throws: `PostgresError` for a location libpq cannot parse (`invalidInput`) or a
    ///   server that cannot be reached or refuses the connection; `MigrationError` for a schema
    ///   this build must not touch; `StoreLocationError.noStore` for an empty schema when
    ///   `options.createIfMissing` is false; `PostgresStoreError.noSchema`, or `.mayNotCreate`
    ///   for a missing store the role could not create.
    public convenience init(url: String, options: StoreOptions = StoreOptions()) throws {
        try self.init(location: PostgresLocation(url), options: options)
    }

    /// Opens the store at `location`, as `init(url:options:)` does.
    ///
    /// - Throws: as `init(url:options:)` does.
    public init(location: PostgresLocation, options: StoreOptions = StoreOptions()) throws {
        let connectionOptions = Self.connectionOptions(busyTimeout: options.busyTimeout)
        self.location = location
        initialSettings = options.initialSettings
        let pool = try PostgresConnectionPool(
            location: location, options: connectionOptions,
            maximumConnections: try options.checkedMaximumConnections() ?? Self.defaultMaximumConnections,
            checkoutTimeout: options.busyTimeout)
        self.pool = pool
        let migrator = PostgresMigrator.shipped
        let initialSettings = options.initialSettings
        schema = try pool.withConnection { connection in
            let survey = try migrator.survey(connection)
            if survey.applied.isEmpty {
                // Missing: what creating it would refuse is said now, whether or not it is to
                // be created.
                guard survey.schema != nil else { throw PostgresStoreError.noSchema(location: location.redacted) }
                guard survey.mayCreate else { throw PostgresStoreError.mayNotCreate(location: location.redacted) }
                if !options.createIfMissing { throw StoreLocationError.noStore(location: location.redacted) }
            }
            if options.migrate, survey.applied.count < migrator.plan.migrations.count {
                _ = try migrator.migrate(connection, location: location, initialSettings: initialSettings, now: Date())
            }
            return survey.schema ?? ""
        }
        changeFeed = PostgresChangeFeed(
            location: location, options: connectionOptions, channel: Self.changeChannel, payload: schema)
    }

    /// The session settings of every connection, from the busy timeout: a unit waits that
    /// long for a lock or a connection (a busy timeout of 0 does not wait, as on SQLite); a
    /// statement may run, and a transaction sit idle, a minute longer, which ends a client
    /// that hangs holding locks; and a server that has not answered 5 seconds after that is
    /// taken for lost, which ends a unit waiting on a server that hangs.
    public static func connectionOptions(busyTimeout: Duration) -> PostgresConnectionOptions {
        var options = PostgresConnectionOptions()
        options.connectTimeout = max(busyTimeout, .seconds(2))
        // PostgreSQL reads a lock_timeout of 0 as no limit at all; 1 ms, the shortest it
        // takes, is the nearest it comes to not waiting.
        options.lockTimeout = max(busyTimeout, .milliseconds(1))
        options.statementTimeout = busyTimeout + .seconds(60)
        options.idleInTransactionSessionTimeout = busyTimeout + .seconds(60)
        options.responseTimeout = busyTimeout + .seconds(65)
        return options
    }

    /// How many connections units run on at most.
    public var maximumConnections: Int { pool.maximumConnections }


    public func write<Result>(_ body: (any CartStorageWriter) throws -> Result) throws -> Result {
        var attempt = 1
        while true {
            do {
                var wrote = false
                let result = try pool.withConnection { connection in
                    try connection.transaction(.readCommitted) {
                        let storage = PostgresCartStorage(connection: connection, locks: true)
                        let result = try body(storage)
                        wrote = storage.hasWritten
                        return result
                    }
                }
                if wrote { localCommits.add(1, ordering: .relaxed) }
                return result
            } catch where attempt < Self.maximumAttempts && Self.isConflict(error) {
                // A random wait, its bound doubling from 0.4 ms up to 25.6 ms, keeps units that
                // collided from colliding again in step, however many collided.
                usleep(UInt32.random(in: 0...UInt32(200 << attempt)))
                attempt += 1
            }
        }
    }

    /// Whether `error` ended a unit only because a concurrent unit got in its way: a deadlock
    /// or serialization failure, or a row the unit inserts that another unit stored after the
    /// unit looked for it.
    static func isConflict(_ error: any Error) -> Bool {
        if let error = error as? PostgresError { return error.isTransactionConflict || error.isUniqueViolation }
        if case .alreadyStored = error as? PostgresStoreError { return true }
        return false
    }

    public func read<Result>(_ body: (any CartStorageReader) throws -> Result) throws -> Result {
        try pool.withConnection { connection in
            try connection.transaction(.repeatableRead, readOnly: true) {
                try body(PostgresCartStorage(connection: connection, locks: false))
            }
        }
    }

    /// Changes when any client, in any process on any host, commits a change to this store
    /// (a notification, sent by the schema's triggers, on a listening connection of the
    /// repository's own, opened on the first call), and when this repository commits one.
    /// Costs one round trip.
    public func changeToken() throws -> Int64 {
        try changeFeed.token() &+ localCommits.load(ordering: .relaxed)
    }

    private static let selectReadOnly: PostgresSQL =
        "SELECT pg_catalog.pg_is_in_recovery(), current_setting('transaction_read_only') = 'on'"

    /// Throws when the server takes no writes from this repository's sessions: it is a standby
    /// (after a failover, the old primary), or sessions are read-only by default
    /// (`default_transaction_read_only`). One statement, which writes nothing, on the change
    /// feed's connection, so that a readiness probe does not wait for a busy pool.
    ///
    /// - Throws: `PostgresStoreError.readOnly`, or `PostgresError`.
    public func checkWritable() throws {
        let (standby, readOnlySessions) = try changeFeed.onListeningConnection { connection in
            guard let row = try connection.execute(Self.selectReadOnly).first else {
                throw PostgresError(kind: .unexpectedResult, message: "no answer", sql: Self.selectReadOnly.text)
            }
            return (try row.bool(0), try row.bool(1))
        }.result
        if standby { throw PostgresStoreError.readOnly("the server is a standby") }
        if readOnlySessions { throw PostgresStoreError.readOnly("its sessions are read-only (default_transaction_read_only)") }
    }
}
