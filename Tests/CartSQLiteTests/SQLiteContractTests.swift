import CartContract
import CartSQLite
import CartTestSupport
import Testing

@Suite("Contract: SQLite")
struct SQLiteContractTests {
    @Test("a SQLite file meets the contract", arguments: CartContract.cases)
    func file(_ check: ContractCase) async throws {
        try await check.run { settings in
            let directory = try TemporaryDirectory()
            let repository = try SQLiteCartRepository(path: directory.path("cart.sqlite3"), initialSettings: settings)
            return ContractRepository(repository, keeping: directory)
        }
    }

    @Test("a private in-memory SQLite database meets the contract", arguments: CartContract.cases)
    func memory(_ check: ContractCase) async throws {
        try await check.run { settings in try SQLiteCartRepository.inMemory(initialSettings: settings) }
    }
}
