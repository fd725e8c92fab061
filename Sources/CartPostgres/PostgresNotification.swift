/// A message sent with `NOTIFY` (or `pg_notify`) on a channel the connection listens to.
public struct PostgresNotification: Sendable, Hashable {
    /// The channel it was sent on.
    public let channel: String
    /// The text sent with it; empty when none was.
    public let payload: String
    /// The process ID of the server backend of the session that sent it.
    public let processID: Int32
}
