import CLibpq
import CLibpqLoader

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

extension PostgresConnection {
    /// Runs `statements` in one round trip (libpq's pipeline mode) and returns their results
    /// in order.
    ///
    /// The server runs them in order and stops at the first that fails: the rest are not run,
    /// and this throws that first error. Statements sent without an explicit `BEGIN` run as
    /// one implicit transaction, so a failure undoes all of them; inside an explicit
    /// transaction, a failure leaves it failed until ROLLBACK (`transaction(_:)` does that).
    /// Either way the connection is usable afterwards.
    ///
    /// ```swift
    /// let results = try connection.pipeline([
    ///     PostgresStatement("BEGIN"),
    ///     PostgresStatement("SELECT version FROM carts WHERE id = $1 FOR UPDATE", ["c1"]),
    /// ])
    /// let version = try results[1].first?.int64(0)
    /// ```
    ///
    /// - Throws: `PostgresError`: the first failing statement's error, a lost connection, or
    ///   a parameter that cannot be sent (then nothing is sent).
    public func pipeline(_ statements: [PostgresStatement]) throws -> [PostgresResult] {
        let results = try send(statements)
        return Array(results.suffix(statements.count))
    }

    /// Queues a statement whose rows are not needed now: it is sent with the next statement
    /// (`execute`, `pipeline`, `flush`, or the COMMIT of `transaction`), in the same round
    /// trip. Its failure is thrown there.
    public func queue(_ sql: PostgresSQL, _ parameters: [PostgresValue] = []) {
        queued.append(PostgresStatement(sql, parameters))
    }

    /// Sends the queued statements, if any, in one round trip.
    ///
    /// - Throws: `PostgresError` as `pipeline(_:)` does.
    public func flush() throws {
        guard !queued.isEmpty else { return }
        _ = try send([])
    }

    /// What the server answers to one step of a pipeline.
    private enum Step {
        /// The preparation of a statement not yet prepared on this connection.
        case prepare(sql: PostgresSQL)
        /// The execution of statement number `position`.
        case execute(position: Int)
    }

    /// Sends the queued statements and then `statements` in one pipeline, preparing those
    /// this connection has not prepared yet in the same round trip, and returns every
    /// result (queued ones first).
    func send(_ statements: [PostgresStatement]) throws -> [PostgresResult] {
        let statements = queued.isEmpty ? statements : queued + statements
        queued.removeAll(keepingCapacity: true)
        guard !statements.isEmpty else { return [] }
        for statement in statements { try PostgresValue.check(statement.parameters, sql: statement.sql) }
        // The prepared name of each statement, looked up once; SQL still to be prepared must
        // reach libpq whole.
        let prepared = statements.map { statementNames[$0.sql] }
        for (statement, name) in zip(statements, prepared) where name == nil && statement.sql.text.utf8.contains(0) {
            throw PostgresError(kind: .invalidArgument, message: "the SQL contains a NUL character", sql: statement.sql.text)
        }
        try checkUsable(sql: statements.first?.sql.text)
        guard cart_PQenterPipelineMode(handle) == 1 else {
            isBroken = true
            throw lostConnection(sql: statements.first?.sql.text)
        }
        requestsBegun += 1
        var steps: [Step] = []
        steps.reserveCapacity(2 * statements.count)
        for (position, statement) in statements.enumerated() {
            let name: String
            // A statement new to this connection may come twice in one pipeline.
            if let known = prepared[position] ?? statementNames[statement.sql] {
                name = known
            } else {
                name = "cart_\(nextStatementNumber)"
                nextStatementNumber += 1
                statementNames[statement.sql] = name
                guard cart_PQsendPrepare(handle, name, statement.sql.text, 0, nil) == 1 else {
                    return try abandon(statement.sql.text)
                }
                steps.append(.prepare(sql: statement.sql))
            }
            let sent = PostgresValue.withTextFormats(statement.parameters) { count, values in
                cart_PQsendQueryPrepared(handle, name, count, values, nil, nil, 0)
            }
            guard sent == 1 else { return try abandon(statement.sql.text) }
            steps.append(.execute(position: position))
        }
        guard cart_PQpipelineSync(handle) == 1 else { return try abandon(statements.last?.sql.text) }
        let deadline = answerDeadline()

        // A failure is thrown once every result is in, so on success every statement has one,
        // appended in order.
        var results: [PostgresResult] = []
        results.reserveCapacity(statements.count)
        var failure: PostgresError?
        for step in steps {
            let sql =
                switch step {
                case .prepare(let sql): sql.text
                case .execute(let position): statements[position].sql.text
                }
            try awaitAnswer(by: deadline, sql: sql)
            guard let result = cart_PQgetResult(handle) else { return try abandon(sql, failure) }
            // Each step's results end with a null result.
            if let extra = cart_PQgetResult(handle) {
                cart_PQclear(extra)
                cart_PQclear(result)
                return try abandon(sql, failure)
            }
            let status = cart_PQresultStatus(result)
            switch (step, status) {
            case (.prepare, PGRES_COMMAND_OK):
                cart_PQclear(result)
            case (.prepare(let prepared), _):
                statementNames[prepared] = nil
                if status == PGRES_FATAL_ERROR, failure == nil { failure = error(from: result, sql: sql) }
                cart_PQclear(result)
            case (.execute, PGRES_COMMAND_OK), (.execute, PGRES_TUPLES_OK), (.execute, PGRES_EMPTY_QUERY):
                results.append(PostgresResult(handle: result, sql: sql))
            case (.execute, PGRES_FATAL_ERROR):
                if failure == nil { failure = error(from: result, sql: sql) }
                cart_PQclear(result)
            case (.execute, PGRES_PIPELINE_ABORTED):
                cart_PQclear(result)
            default:
                // COPY and anything else this layer does not speak leave the protocol in a
                // state it cannot recover from.
                let name = String(cString: cart_PQresStatus(status))
                cart_PQclear(result)
                isBroken = true
                throw PostgresError(kind: .unexpectedResult, message: "unexpected result \(name) (COPY is not supported)", sql: sql)
            }
        }
        // A COMMIT answered is a transaction committed, whatever becomes of the connection
        // before the sync's answer (a session ended right after the commit).
        let committed = failure == nil && results.count == statements.count && results.last?.commandTag == "COMMIT"
        do {
            try awaitAnswer(by: deadline, sql: statements.last?.sql.text)
        } catch where committed {
            isBroken = true
            return results
        }
        let sync = cart_PQgetResult(handle)
        let synced = sync.map { cart_PQresultStatus($0) == PGRES_PIPELINE_SYNC } ?? false
        if let sync { cart_PQclear(sync) }
        guard synced, cart_PQexitPipelineMode(handle) == 1 else {
            if committed {
                isBroken = true
                return results
            }
            return try abandon(statements.last?.sql.text, failure)
        }
        if let failure { throw failure }
        return results
    }

    /// Runs one statement this connection has prepared as `name`, with nothing queued, in one
    /// round trip outside pipeline mode: a pipeline's entry, sync and exit cost about as much
    /// client work again, and a unit's statements after its first are mostly such lone ones.
    func sendPrepared(_ sql: PostgresSQL, _ parameters: [PostgresValue], name: String) throws -> PostgresResult {
        try PostgresValue.check(parameters, sql: sql)
        try checkUsable(sql: sql.text)
        requestsBegun += 1
        let sent = PostgresValue.withTextFormats(parameters) { count, values in
            cart_PQsendQueryPrepared(handle, name, count, values, nil, nil, 0)
        }
        guard sent == 1 else {
            isBroken = true
            throw lostConnection(sql: sql.text)
        }
        let deadline = answerDeadline()
        var answer: PostgresResult?
        // Kept until every result is in, so that the error knows whether the connection went
        // with it (a terminated session sends its error, then closes).
        var failed: OpaquePointer?
        defer { if let failed { cart_PQclear(failed) } }
        while true {
            try awaitAnswer(by: deadline, sql: sql.text)
            guard let result = cart_PQgetResult(handle) else { break }
            switch cart_PQresultStatus(result) {
            case PGRES_COMMAND_OK, PGRES_TUPLES_OK, PGRES_EMPTY_QUERY:
                if answer == nil { answer = PostgresResult(handle: result, sql: sql.text) } else { cart_PQclear(result) }
            case PGRES_FATAL_ERROR:
                if failed == nil { failed = result } else { cart_PQclear(result) }
            default:
                let name = String(cString: cart_PQresStatus(cart_PQresultStatus(result)))
                cart_PQclear(result)
                isBroken = true
                throw PostgresError(kind: .unexpectedResult, message: "unexpected result \(name) (COPY is not supported)", sql: sql.text)
            }
        }
        // A COMMIT answered is a transaction committed, whatever the session's end said after it.
        if let answer, answer.commandTag == "COMMIT" {
            if failed != nil { isBroken = true }
            return answer
        }
        if let failed { throw error(from: failed, sql: sql.text) }
        guard let answer else { throw lostConnection(sql: sql.text) }
        return answer
    }

    /// When the answer to a request sent now must have come, if the connection has a
    /// response timeout.
    private func answerDeadline() -> ContinuousClock.Instant? {
        responseTimeout.map { ContinuousClock.now + $0 }
    }

    /// The longest one wait on the socket lasts before libpq reads again: over TLS, a read can
    /// leave decrypted bytes in the TLS layer that the socket no longer signals.
    static let socketWaitSlice = Duration.milliseconds(100)

    /// Waits until libpq holds the next result, so that `PQgetResult` returns without blocking,
    /// at most until `deadline`. A server silent until then (stopped, or cut off in a way the
    /// kernel does not see) has the connection marked broken, and the unit fails as unable to
    /// reach it. When libpq cannot read (the server closed the connection), `PQgetResult`
    /// reports its error, the server's last message first (a session it ended says so).
    private func awaitAnswer(by deadline: ContinuousClock.Instant?, sql: String?) throws {
        guard let deadline, let timeout = responseTimeout else { return }
        while cart_PQisBusy(handle) == 1 {
            let remaining = ContinuousClock.now.duration(to: deadline)
            guard remaining > .zero else {
                isBroken = true
                throw PostgresError(kind: .connection, message: "\(location) sent no answer within \(timeout); the connection is given up", sql: sql)
            }
            var descriptor = pollfd(fd: cart_PQsocket(handle), events: Int16(POLLIN), revents: 0)
            guard descriptor.fd >= 0 else { return }
            let wait = min(remaining, Self.socketWaitSlice)
            if poll(&descriptor, 1, Int32(clamping: wait.roundedUpMilliseconds)) < 0, errno != EINTR {
                isBroken = true
                throw lostConnection(sql: sql)
            }
            // libpq's socket does not block: with nothing to read this reads nothing.
            guard cart_PQconsumeInput(handle) == 1 else { return }
        }
    }

    /// Gives up on a pipeline that went out of step (libpq refused to send, a result is
    /// missing): the connection is marked broken, and the error says why. A session the
    /// server ended sent its reason (57P01 and the like) before the socket closed, and
    /// libpq's own error for the steps after it says only that the socket closed.
    private func abandon(_ sql: String?, _ failure: PostgresError? = nil) throws -> [PostgresResult] {
        isBroken = true
        if let failure, failure.isConnectionFailure { throw failure }
        throw lostConnection(sql: sql)
    }
}

extension String {
    /// Whether the text holds the NUL character, which PostgreSQL text cannot store.
    var containsNUL: Bool {
        utf8.withContiguousStorageIfAvailable { bytes in
            guard let base = bytes.baseAddress else { return false }
            return memchr(base, 0, bytes.count) != nil
        } ?? utf8.contains(0)
    }
}
