import CartContract
import CartInMemory
import Testing

@Suite("Contract: in-memory store")
struct InMemoryContractTests {
    @Test("the in-memory store meets the contract", arguments: CartContract.cases)
    func contract(_ check: ContractCase) async throws {
        try await check.run { settings in try InMemoryCartRepository(settings: settings) }
    }
}
