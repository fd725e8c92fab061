#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Testing

/// Where the contract finds a backend that needs a server (PostgreSQL): a location read from
/// an environment variable, so the suite runs wherever one is configured.
///
/// ```swift
/// @Test(arguments: try ContractService.cases(requiring: "CART_TEST_POSTGRES_URL"))
/// func contract(_ check: ContractCase) async throws {
///     let url = try ContractService.location(environmentVariable: "CART_TEST_POSTGRES_URL")
///     try await check.run { settings in try PostgresCartRepository(url: url, options: StoreOptions(initialSettings: settings)) }
/// }
/// ```
///
/// Unset, the test is skipped with a reason the runner shows, except under `CI=true`, where a
/// run must not pass without the backend it was meant to check: it fails. A configured
/// location that cannot be reached fails the cases too, as the factory's error: let it through.
public enum ContractService {
    /// Every case of the contract, when `environmentVariable` locates the service; read it in
    /// the `arguments:` of the test, so that an unset variable skips the whole test, visibly.
    ///
    /// - Throws: `ContractServiceError.notConfigured` under CI; otherwise the testing
    ///   library's cancellation, which skips the test with its reason.
    public static func cases(requiring environmentVariable: String) throws -> [ContractCase] {
        _ = try location(environmentVariable: environmentVariable)
        return CartContract.cases
    }

    /// The location in `environmentVariable`, or, when it is unset or empty, a skipped test or
    /// test case (a failed one under `CI=true` or `CI=1`).
    ///
    /// - Throws: `ContractServiceError.notConfigured` under CI; otherwise the testing
    ///   library's cancellation, which skips what is running.
    public static func location(environmentVariable name: String) throws -> String {
        try location(environmentVariable: name, in: ProcessInfo.processInfo.environment)
    }

    /// `location(environmentVariable:)`, reading `environment` instead of the process's.
    ///
    /// - Throws: `ContractServiceError.notConfigured` under CI; otherwise the testing
    ///   library's cancellation, which skips what is running.
    public static func location(environmentVariable name: String, in environment: [String: String]) throws -> String {
        if let location = environment[name], !location.isEmpty { return location }
        let ci = environment["CI"]?.lowercased()
        if ci == "true" || ci == "1" { throw ContractServiceError.notConfigured(environmentVariable: name) }
        try Test.cancel("\(name) is not set, so the contract does not run against this backend; set it to run it")
    }
}
