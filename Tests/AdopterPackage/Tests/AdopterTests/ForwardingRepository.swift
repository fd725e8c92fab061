import CartCore

/// The adopter's own backend: a repository that hands every unit to another, as a caching,
/// metrics or tracing layer would, written outside the cart package.
struct ForwardingRepository: CartRepository {
    let base: any CartRepository

    func write<Result>(_ body: (any CartStorageWriter) throws -> Result) throws -> Result {
        try base.write(body)
    }

    func read<Result>(_ body: (any CartStorageReader) throws -> Result) throws -> Result {
        try base.read(body)
    }

    func changeToken() throws -> Int64 { try base.changeToken() }
}
