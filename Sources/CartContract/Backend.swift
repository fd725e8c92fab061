import CartCore
import Testing

/// The backend under test, as one running case sees it: its factory, and what the
/// repositories made so far need when the case ends.
final class Backend {
    private let make: (StoreSettings) throws -> ContractRepository
    private var ends: [(resources: [Any], tearDown: () throws -> Void)] = []

    init(_ make: @escaping (StoreSettings) throws -> ContractRepository) {
        self.make = make
    }

    /// A fresh, empty repository created with `settings`.
    ///
    /// - Throws: what the factory throws.
    func makeRepository(settings: StoreSettings) throws -> any CartRepository {
        let made = try make(settings)
        ends.append((made.resources, made.tearDown))
        return made.repository
    }

    /// Tears the repositories down, newest first, recording what fails, and releases their
    /// resources.
    func end() {
        for end in ends.reversed() {
            do {
                try end.tearDown()
            } catch {
                Issue.record(error, "tearing down a repository the factory made")
            }
        }
        ends.removeAll()
    }
}
