public import CartCore
public import Testing

/// One behaviour of the contract, run against repositories a backend's factory makes.
///
/// Its `testDescription` names it in the runner ("Adding to a cart: adding the same SKU again
/// merges into its one line"), and its `id` is stable, so a runner can run one case again.
public struct ContractCase: Sendable, Identifiable, CustomTestStringConvertible {
    /// A stable key: the suite's and the case's, `adding.addMergesSameSKU`.
    public let id: String
    /// The group of behaviours the case belongs to: `Adding to a cart`.
    public let suite: String
    /// The behaviour checked, in words.
    public let behaviour: String
    private let body: @Sendable (Backend) async throws -> Void

    init(suite: String, key: String, behaviour: String, body: @escaping @Sendable (Backend) async throws -> Void) {
        self.id = key
        self.suite = suite
        self.behaviour = behaviour
        self.body = body
    }

    public var testDescription: String { "\(suite): \(behaviour)" }

    /// Runs the case; `makeRepository` returns a fresh, empty repository created with the
    /// settings it is given each time it is called.
    ///
    /// - Throws: the first error the case did not expect (the factory's among them); failed
    ///   expectations are recorded as issues of the running test.
    public func run(_ makeRepository: @escaping (StoreSettings) throws -> any CartRepository) async throws {
        try await run { settings in ContractRepository(try makeRepository(settings)) }
    }

    /// Runs the case; `makeRepository` returns a fresh, empty repository created with the
    /// settings it is given, with whatever must live as long as it (a directory for its
    /// files), each time it is called.
    ///
    /// - Throws: the first error the case did not expect (the factory's among them); failed
    ///   expectations are recorded as issues of the running test.
    public func run(_ makeRepository: @escaping (StoreSettings) throws -> ContractRepository) async throws {
        let backend = Backend(makeRepository)
        defer { backend.end() }
        try await body(backend)
    }
}

extension ContractCase {
    /// The cases of one suite, from `(key, behaviour, body)` entries; each case's `id` is
    /// `suiteKey.key`.
    static func suite(
        _ name: String, key suiteKey: String,
        _ entries: [(key: String, behaviour: String, body: @Sendable (Backend) async throws -> Void)]
    ) -> [ContractCase] {
        entries.map { ContractCase(suite: name, key: "\(suiteKey).\($0.key)", behaviour: $0.behaviour, body: $0.body) }
    }
}
