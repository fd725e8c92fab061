import CartContract
import CartCore
import CartPostgres
import Testing

@Suite("Contract: PostgreSQL")
struct PostgresContractTests {
    @Test("a PostgreSQL schema meets the contract", arguments: try ContractService.cases(requiring: TestServer.url))
    func schema(_ check: ContractCase) async throws {
        try await check.run { settings in
            let schema = try TestSchema()
            let repository = try schema.repository(StoreOptions(initialSettings: settings))
            return ContractRepository(repository, keeping: schema, tearDown: { try schema.drop() })
        }
    }
}
