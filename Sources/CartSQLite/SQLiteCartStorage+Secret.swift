import CartCore

extension SQLiteCartStorage {
    private static let selectSecret = CachedSQL("SELECT secret FROM store_secret WHERE id = 1")

    func storeSecret() throws -> StoreSecret? {
        let statement = try database.cached(Self.selectSecret)
        defer { statement.reset() }
        guard try statement.step() else { return nil }
        return try StoreSecret(storedHex: statement.string(at: 0))
    }

    private static let insertSecretSQL = CachedSQL("INSERT INTO store_secret (id, secret) VALUES (1, ?)")

    func insertStoreSecret(_ secret: StoreSecret) throws {
        let statement = try database.cached(Self.insertSecretSQL)
        try statement.bind(secret.hex, at: 1)
        try statement.run()
    }
}
