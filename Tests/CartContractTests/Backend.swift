import CartCore
import CartTestSupport
import CartInMemory
import CartSQLite
import Testing

/// Every `CartRepository` the contract suite proves. A new backend is tested by adding one case
/// here and one branch to `makeRepository(settings:)`, nothing else.
enum Backend: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case inMemory
    case sqliteFile
    case sqliteMemory

    var testDescription: String { rawValue }

    /// A fresh, empty repository created with `settings`, and whatever must live as long as it.
    func makeRepository(settings: StoreSettings) throws -> (any CartRepository, TemporaryDirectory?) {
        switch self {
        case .inMemory:
            return (InMemoryCartRepository(settings: settings), nil)
        case .sqliteFile:
            let directory = try TemporaryDirectory()
            let repository = try SQLiteCartRepository(path: directory.path("cart.sqlite3"), initialSettings: settings)
            return (repository, directory)
        case .sqliteMemory:
            return (try SQLiteCartRepository.inMemory(initialSettings: settings), nil)
        }
    }
}
