import CartCore
import Testing

/// Every `CartRepository` the contract suite proves. A new backend is tested by adding one case
/// here and one branch to `makeRepository(settings:)`, nothing else.
enum Backend: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case inMemory

    var testDescription: String { rawValue }

    /// A fresh, empty repository created with `settings`, and whatever must live as long as it.
    func makeRepository(settings: StoreSettings) throws -> (any CartRepository, TemporaryDirectory?) {
        switch self {
        case .inMemory:
            return (InMemoryCartRepository(settings: settings), nil)
        }
    }
}
