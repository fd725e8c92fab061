import CartCore

extension PostgresCartStorage {
    private static let selectSecret: PostgresSQL = "SELECT secret FROM store_secret WHERE id = 1"

    // No lock: the row never changes once stored. One stored by another unit after this one
    // looked makes the insert below fail, and the unit runs again.
    func storeSecret() throws -> StoreSecret? {
        guard let row = try rows(Self.selectSecret).first else { return nil }
        return try StoreSecret(storedHex: try row.string(0))
    }

    private static let insertSecretSQL: PostgresSQL = "INSERT INTO store_secret (id, secret) VALUES (1, $1) ON CONFLICT (id) DO NOTHING"

    func insertStoreSecret(_ secret: StoreSecret) throws {
        guard try change(Self.insertSecretSQL, [.text(secret.hex)]) == 1 else {
            throw PostgresStoreError.alreadyStored("the store secret")
        }
    }
}
