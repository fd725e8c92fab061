extension PostgresConnection {
    /// Runs `body` in a transaction: committed if it returns, rolled back if it throws.
    ///
    /// `BEGIN` is queued, not sent: it travels with the first statement `body` runs, and
    /// statements `body` queues travel with the COMMIT, so a unit that reads once and then
    /// writes costs two round trips:
    ///
    /// ```swift
    /// try connection.transaction {
    ///     let cart = try connection.execute("SELECT version FROM carts WHERE id = $1 FOR UPDATE", [id])  // BEGIN + SELECT
    ///     connection.queue("UPDATE carts SET version = version + 1 WHERE id = $1", [id])
    ///     connection.queue("INSERT INTO cart_lines …", […])
    /// }  // UPDATE + INSERT + COMMIT
    /// ```
    ///
    /// If `body` throws before anything was sent, nothing reaches the server.
    ///
    /// - Throws: what `body` throws, or `PostgresError`: a statement's or the COMMIT's failure
    ///   (a serialization failure of a serializable transaction may show only at COMMIT; a
    ///   transaction that a failed statement aborted is rolled back, 25P02), a lost
    ///   connection, `.commitOutcomeUnknown` for one lost after the COMMIT of a transaction
    ///   that may write reached the server and before it answered, or `.invalidArgument`
    ///   when a transaction is already open.
    public func transaction<Result>(
        _ isolation: PostgresIsolationLevel = .readCommitted, readOnly: Bool = false, _ body: () throws -> Result
    ) throws -> Result {
        try queueBegin(isolation.begin(readOnly: readOnly))
        do {
            let result = try body()
            let begun = requestsBegun
            let commit: PostgresResult
            do {
                commit = try execute(Self.commit)
            } catch let error as PostgresError where !readOnly && requestsBegun != begun && error.leavesCommitUndecided {
                throw PostgresError.commitOutcomeUnknown(after: error)
            }
            // The server answers COMMIT of a transaction a failed statement aborted (one whose
            // error `body` caught) with a ROLLBACK: that is a failure, not a success.
            guard commit.commandTag == "COMMIT" else {
                throw PostgresError(
                    kind: .server, message: "the transaction was rolled back, not committed: one of its statements had failed",
                    sqlState: "25P02", sql: "COMMIT")
            }
            return result
        } catch {
            rollBack()
            throw error
        }
    }

    /// Runs `body` in a READ COMMITTED transaction that is always rolled back: for work whose
    /// effects are looked at and never kept, such as a scratch schema. It may write even where
    /// sessions are read-only by default (`default_transaction_read_only`).
    ///
    /// - Throws: what `body` throws, or `PostgresError` (`.invalidArgument` when a transaction
    ///   is already open).
    func rolledBack<Result>(_ body: () throws -> Result) throws -> Result {
        try queueBegin(Self.beginReadWrite)
        defer { rollBack() }
        return try body()
    }

    private static let beginReadWrite: PostgresSQL = "BEGIN ISOLATION LEVEL READ COMMITTED READ WRITE"

    /// Queues `begin`, unless a transaction is open or statements are queued.
    private func queueBegin(_ begin: PostgresSQL) throws {
        guard transactionStatus == .idle, queued.isEmpty else {
            throw PostgresError(
                kind: .invalidArgument, message: "a transaction is already open on this connection, or statements are queued",
                sql: begin.text)
        }
        queue(begin)
    }

    private static let commit: PostgresSQL = "COMMIT"
    private static let rollback: PostgresSQL = "ROLLBACK"

    /// Ends an open or failed transaction with ROLLBACK, drops queued statements, and marks
    /// the connection broken if even that fails, so that no pool hands it out again.
    func rollBack() {
        queued.removeAll()
        guard isOpen, transactionStatus == .inTransaction || transactionStatus == .failed else { return }
        do {
            try execute(Self.rollback)
        } catch {
            isBroken = true
        }
    }
}
