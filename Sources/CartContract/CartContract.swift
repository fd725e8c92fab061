/// The conformance suite every `CartRepository` must pass, as a list of cases a backend's test
/// target runs against fresh repositories of its own.
///
/// ```swift
/// import CartContract
/// import Testing
///
/// @Suite struct InMemoryContract {
///     @Test(arguments: CartContract.cases)
///     func contract(_ check: ContractCase) async throws {
///         try await check.run { settings in try InMemoryCartRepository(settings: settings) }
///     }
/// }
/// ```
///
/// Each case is its own test case in the runner, named by its suite and the behaviour it
/// checks. A case makes every repository it needs through the factory (some make two), so
/// cases share nothing and run in parallel. Failures are recorded with `#expect` against the
/// running test.
public enum CartContract {
    /// Every case of the suite.
    public static let cases: [ContractCase] =
        AddingContract.cases + RemovingContract.cases + ReadingAndVersionContract.cases
        + DamagedLineContract.cases + CartLifecycleContract.cases + CatalogContract.cases + ImportContract.cases + CheckoutContract.cases
        + OrderHistoryContract.cases + AtomicityContract.cases + StorageAssumptionContract.cases
        + FastPathContract.cases + PushDownContract.cases + ErrorCategoryContract.cases
        + CodableContract.cases + StoreSecretContract.cases
}
