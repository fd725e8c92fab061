import CLibpqLoader

extension PostgresError {
    /// Opens libpq, which is loaded on first use, or throws why it cannot be.
    ///
    /// - Throws: `PostgresError` of kind `.clientLibrary`.
    static func requireClientLibrary() throws {
        guard cart_libpq_open() != 0 else { return }
        let reason = cart_libpq_error().map { String(cString: $0) } ?? "it cannot be loaded"
        throw PostgresError(kind: .clientLibrary, message: "PostgreSQL's client library cannot be loaded: \(reason)")
    }
}
