/// A NOTICE, WARNING or other non-error message the server sent (`RAISE NOTICE`, "there is
/// no transaction in progress", …). libpq would print these on stderr; a connection hands
/// them to its `noticeHandler` instead, or drops them.
public struct PostgresNotice: Sendable, Hashable {
    /// `NOTICE`, `WARNING`, `INFO`, `DEBUG`, `LOG`, or `FATAL` for a session that the
    /// server ends while the connection is idle.
    public let severity: String
    /// The SQLSTATE of the message.
    public let sqlState: String
    /// The primary message.
    public let message: String

    init(result: OpaquePointer) {
        severity = ErrorField.severity.value(in: result) ?? ""
        sqlState = ErrorField.sqlState.value(in: result) ?? ""
        message = ErrorField.primaryMessage.value(in: result) ?? ""
    }
}
