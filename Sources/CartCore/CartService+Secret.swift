extension CartService {
    /// The store's secret (`StoreSecret`): read when the store has one, else made and stored
    /// in one write unit. Processes asking at once all get the one that was stored first.
    ///
    /// - Throws: `StoredDataError` when the stored secret is not 64 hex digits, or a storage
    ///   error (a read-only store that has no secret yet cannot be given one).
    public func storeSecret() throws -> StoreSecret {
        if let stored = try repository.read({ storage in try storage.storeSecret() }) { return stored }
        return try repository.write { storage in
            if let stored = try storage.storeSecret() { return stored }
            let secret = StoreSecret.random()
            try storage.insertStoreSecret(secret)
            return secret
        }
    }
}
