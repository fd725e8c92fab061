import CartContract
import Testing

/// The contract library's own promises to the backends that run it.
@Suite("The CartContract library")
struct ContractLibraryTests {
    @Test("every case has a key and a description of its own, and names its suite")
    func casesAreDistinct() {
        let cases = CartContract.cases
        #expect(Set(cases.map(\.id)).count == cases.count)
        #expect(Set(cases.map(\.testDescription)).count == cases.count)
        for check in cases {
            #expect(check.testDescription == "\(check.suite): \(check.behaviour)")
            #expect(!check.suite.isEmpty && !check.behaviour.isEmpty && check.id.contains("."))
        }
    }

    @Test("a configured service's location is returned as it is set")
    func configuredLocation() throws {
        let environment = ["CART_TEST_SERVICE": "postgresql://localhost/cart_test", "CI": "true"]
        #expect(
            try ContractService.location(environmentVariable: "CART_TEST_SERVICE", in: environment)
                == "postgresql://localhost/cart_test")
    }

    @Test("under CI, a service that is not configured fails the run", arguments: ["true", "TRUE", "1"])
    func unconfiguredUnderCI(_ ci: String) {
        for environment in [["CI": ci], ["CI": ci, "CART_TEST_SERVICE": ""]] {
            #expect(throws: ContractServiceError.notConfigured(environmentVariable: "CART_TEST_SERVICE")) {
                try ContractService.location(environmentVariable: "CART_TEST_SERVICE", in: environment)
            }
        }
    }
}
