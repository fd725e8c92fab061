/// Which backend keeps the data.
enum StoreKind: String, CaseIterable, Sendable {
    /// A SQLite file that survives the process.
    case sqlite
    /// This process's memory: nothing survives the command.
    case memory
}
