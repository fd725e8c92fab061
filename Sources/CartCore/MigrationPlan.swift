/// The migrations one SQL dialect's store goes through, in order, and the rules every backend
/// applies to what a store records of them: the checksum logic shared by all.
///
/// A backend keeps a table of applied migrations (number, name, SHA-256 checksum, when), checks
/// it with `verify(_:)` before writing anything, and applies `pending(after:)` in one
/// transaction.
public struct MigrationPlan: Sendable {
    /// One migration as shipped in this build.
    public struct Migration: Sendable {
        /// The migration's number, from 1 without gaps.
        public let number: Int
        /// The file name without `.sql`, such as `0001_initial_schema`.
        public let name: String
        /// The SQL text exactly as in the file.
        public let sql: String
        /// The SHA-256 of `sql`'s UTF-8 bytes as 64 lowercase hex digits.
        public let checksum: String

        /// Creates a migration.
        public init(number: Int, name: String, sql: String, checksum: String) {
            self.number = number
            self.name = name
            self.sql = sql
            self.checksum = checksum
        }
    }

    /// Every migration, in order.
    public let migrations: [Migration]

    /// Creates a plan.
    public init(_ migrations: [Migration]) {
        self.migrations = migrations
    }

    /// Refuses records of migrations this build does not ship, rows that name no migration,
    /// records with gaps or out of order, and records of migrations whose SQL changed.
    ///
    /// - Throws: `MigrationError.unknownMigrations`, `.unrecognizedRecord`, `.brokenHistory`
    ///   or `.checksumMismatch`.
    public func verify(_ applied: [AppliedMigration]) throws(MigrationError) {
        let shipped = Set(migrations.map(\.name))
        // Only a well-formed name numbered past this build's last migration is a newer
        // version's; anything else in the record is damage.
        for record in applied where !shipped.contains(record.name) {
            guard let number = Self.number(ofMigrationNamed: record.name), number > migrations.count else {
                throw .unrecognizedRecord(record.name)
            }
        }
        let unknown = applied.map(\.name).filter { !shipped.contains($0) }
        guard unknown.isEmpty else { throw .unknownMigrations(unknown) }
        // Every record names a shipped migration: they must be the first ones, in order.
        let expected = migrations.prefix(applied.count)
        guard zip(expected, applied).allSatisfy({ $0.name == $1.name }) else {
            let recorded = Set(applied.map(\.name))
            let latest = migrations.lastIndex { recorded.contains($0.name) } ?? 0
            throw .brokenHistory(missing: migrations[...latest].map(\.name).filter { !recorded.contains($0) })
        }
        for (migration, record) in zip(migrations, applied) where migration.checksum != record.checksum {
            throw .checksumMismatch(name: record.name)
        }
    }

    /// The number of a migration named as the files are, four digits, `_` and lowercase letters,
    /// digits or `_` (`0001_initial_schema`); nil for any other name.
    static func number(ofMigrationNamed name: String) -> Int? {
        let bytes = Array(name.utf8)
        guard bytes.count > 5, bytes[..<4].allSatisfy({ (0x30...0x39).contains($0) }), bytes[4] == UInt8(ascii: "_"),
            bytes[5...].allSatisfy({ (0x61...0x7A).contains($0) || (0x30...0x39).contains($0) || $0 == UInt8(ascii: "_") })
        else { return nil }
        return Int(String(decoding: bytes[..<4], as: UTF8.self))
    }

    /// The migrations still to apply to a store that records `applied` (already verified).
    public func pending(after applied: [AppliedMigration]) -> ArraySlice<Migration> {
        migrations.dropFirst(applied.count)
    }
}
