/// A connection resting in a pool. Connections are not thread-safe; the pool hands each to
/// one caller at a time and keeps it under its lock in between, which is what makes moving
/// it between threads safe.
struct IdleConnection: @unchecked Sendable {
    let connection: PostgresConnection
}
