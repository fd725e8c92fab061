import CartCore

/// Wraps a backend and makes the `failOnWrite`-th storage write of a unit throw, as a disk
/// error or a lost connection would, so that cases can show that a unit failing midway leaves
/// nothing behind on every backend. What counts as one write is `FaultyWriter`'s.
struct FaultInjectingRepository: CartRepository {
    /// The error the chosen write throws.
    struct InjectedFault: Error, Equatable {}

    let base: any CartRepository
    /// Which write of each unit fails, counting from 1.
    let failOnWrite: Int

    func write<Result>(_ body: (any CartStorageWriter) throws -> Result) throws -> Result {
        try base.write { storage in try body(FaultyWriter(base: storage, failOnWrite: failOnWrite)) }
    }

    func read<Result>(_ body: (any CartStorageReader) throws -> Result) throws -> Result {
        try base.read(body)
    }

    func changeToken() throws -> Int64 { try base.changeToken() }
    func checkWritable() throws { try base.checkWritable() }
}
