import CartCore
import Testing

/// The store's secret: made once, then the same for everyone who asks.
enum StoreSecretContract {
    static let cases = ContractCase.suite(
        "The store secret", key: "secret",
        [
            ("madeOnce", "a new store has no secret until asked; then every call gets the same one", madeOnce),
            ("concurrentCallers", "callers asking at once for a new store's secret all get the one stored", concurrentCallers),
            ("rolledBack", "a secret inserted by a unit that fails is not kept", rolledBack),
        ])

    static func madeOnce(_ backend: Backend) throws {
        let store = try Store(backend)
        #expect(try store.repository.read { try $0.storeSecret() } == nil)
        let secret = try store.service.storeSecret()
        #expect(secret.bytes.count == StoreSecret.byteCount)
        #expect(try store.service.storeSecret() == secret)
        #expect(try store.repository.read { try $0.storeSecret() } == secret)
        #expect(try store.repository.write { try $0.storeSecret() } == secret)
        #expect(try Store(backend).service.storeSecret() != secret, "another store has a secret of its own")
    }

    static func concurrentCallers(_ backend: Backend) async throws {
        let service = try Store(backend).service
        let secrets = try await withThrowingTaskGroup(of: StoreSecret.self) { group in
            for _ in 0..<8 { group.addTask { try service.storeSecret() } }
            return try await group.reduce(into: Set<StoreSecret>()) { $0.insert($1) }
        }
        #expect(secrets.count == 1)
        #expect(try secrets.first == service.storeSecret())
    }

    static func rolledBack(_ backend: Backend) throws {
        let store = try Store(backend)
        struct Undo: Error {}
        #expect(throws: Undo.self) {
            try store.repository.write { storage in
                try storage.insertStoreSecret(StoreSecret.random())
                throw Undo()
            }
        }
        #expect(try store.repository.read { try $0.storeSecret() } == nil)
    }
}
