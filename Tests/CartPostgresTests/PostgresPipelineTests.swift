import CartPostgres
import Testing

@Suite("PostgreSQL pipelines and transactions", TestServer.requires())
struct PostgresPipelineTests {
    /// A connection with an empty temporary table `lines` whose quantity must be positive.
    func connectionWithTable() throws -> PostgresConnection {
        let connection = try TestServer.connect()
        try connection.executeScript(
            "CREATE TEMPORARY TABLE lines (sku text PRIMARY KEY, quantity bigint NOT NULL CHECK (quantity > 0))")
        return connection
    }

    func count(_ connection: PostgresConnection) throws -> Int64 {
        try connection.execute("SELECT count(*) FROM lines")[0].int64(0)
    }

    @Test("a pipeline returns each statement's result in order")
    func pipelineSucceeds() throws {
        let connection = try connectionWithTable()
        let results = try connection.pipeline([
            PostgresStatement("BEGIN"),
            PostgresStatement("INSERT INTO lines VALUES ($1, $2)", ["a", 1]),
            PostgresStatement("INSERT INTO lines VALUES ($1, $2)", ["b", 2]),
            PostgresStatement("SELECT sku, quantity FROM lines ORDER BY sku FOR UPDATE"),
            PostgresStatement("COMMIT"),
        ])
        #expect(results.count == 5)
        #expect(results.map(\.commandTag) == ["BEGIN", "INSERT 0 1", "INSERT 0 1", "SELECT 2", "COMMIT"])
        #expect(try results[3].map { try $0.string(0) } == ["a", "b"])
        #expect(try results[3][1].int64(1) == 2)
        #expect(connection.transactionStatus == .idle)
        #expect(try count(connection) == 2)
    }

    @Test("an error in the middle aborts the rest; the transaction rolls back and the connection stays usable")
    func pipelineFails() throws {
        let connection = try connectionWithTable()
        let error = #expect(throws: PostgresError.self) {
            try connection.pipeline([
                PostgresStatement("BEGIN"),
                PostgresStatement("INSERT INTO lines VALUES ($1, $2)", ["a", 1]),
                PostgresStatement("INSERT INTO lines VALUES ($1, $2)", ["b", 0]),
                PostgresStatement("INSERT INTO lines VALUES ($1, $2)", ["c", 3]),
                PostgresStatement("SELECT count(*) FROM lines"),
            ])
        }
        #expect(error?.isCheckViolation == true)
        #expect(error?.sql == "INSERT INTO lines VALUES ($1, $2)")
        #expect(connection.transactionStatus == .failed)
        try connection.execute("ROLLBACK")
        #expect(try count(connection) == 0)
        #expect(try connection.pipeline([PostgresStatement("SELECT $1::int", [5])])[0][0].int(0) == 5)
    }

    @Test("without BEGIN a pipeline is one implicit transaction")
    func implicitTransaction() throws {
        let connection = try connectionWithTable()
        #expect(throws: PostgresError.self) {
            try connection.pipeline([
                PostgresStatement("INSERT INTO lines VALUES ($1, $2)", ["a", 1]),
                PostgresStatement("INSERT INTO lines VALUES ($1, $2)", ["b", -1]),
            ])
        }
        #expect(connection.transactionStatus == .idle)
        #expect(try count(connection) == 0)
    }

    @Test("a statement that fails to prepare inside a pipeline is prepared again next time")
    func preparationFailsInPipeline() throws {
        let connection = try connectionWithTable()
        let sql: PostgresSQL = "INSERT INTO later VALUES ($1)"
        let error = #expect(throws: PostgresError.self) {
            try connection.pipeline([PostgresStatement("SELECT 1"), PostgresStatement(sql, [1]), PostgresStatement(sql, [2])])
        }
        #expect(error?.isUndefinedTable == true)
        try connection.executeScript("CREATE TEMPORARY TABLE later (id bigint)")
        _ = try connection.pipeline([PostgresStatement(sql, [1]), PostgresStatement(sql, [2])])
        #expect(try connection.execute("SELECT count(*) FROM later")[0].int64(0) == 2)
    }

    @Test("a transaction commits what its body ran and queued")
    func transactionCommits() throws {
        let connection = try connectionWithTable()
        let seen = try connection.transaction(.serializable) {
            #expect(try connection.execute("SHOW transaction_isolation")[0].string(0) == "serializable")
            try connection.execute("INSERT INTO lines VALUES ($1, $2)", ["a", 1])
            connection.queue("INSERT INTO lines VALUES ($1, $2)", ["b", 2])
            connection.queue("UPDATE lines SET quantity = quantity + 1 WHERE sku = $1", ["a"])
            return try count(connection)
        }
        #expect(seen == 2)
        #expect(connection.transactionStatus == .idle)
        #expect(try connection.execute("SELECT quantity FROM lines WHERE sku = $1", ["a"])[0].int64(0) == 2)
    }

    @Test("a transaction whose queued write fails at COMMIT keeps nothing")
    func queuedWriteFails() throws {
        let connection = try connectionWithTable()
        let error = #expect(throws: PostgresError.self) {
            try connection.transaction {
                try connection.execute("INSERT INTO lines VALUES ($1, $2)", ["a", 1])
                connection.queue("INSERT INTO lines VALUES ($1, $2)", ["b", 0])
            }
        }
        #expect(error?.isCheckViolation == true)
        #expect(connection.transactionStatus == .idle)
        #expect(try count(connection) == 0)
    }

    @Test("a transaction whose body throws rolls back")
    func bodyThrows() throws {
        struct Refused: Error {}
        let connection = try connectionWithTable()
        #expect(throws: Refused.self) {
            try connection.transaction {
                try connection.execute("INSERT INTO lines VALUES ($1, $2)", ["a", 1])
                throw Refused()
            }
        }
        #expect(throws: Refused.self) {
            try connection.transaction {
                connection.queue("INSERT INTO lines VALUES ($1, $2)", ["b", 1])
                throw Refused()
            }
        }
        #expect(connection.transactionStatus == .idle)
        #expect(try count(connection) == 0)
    }

    @Test("a read-only transaction refuses writes")
    func readOnly() throws {
        let connection = try connectionWithTable()
        let error = #expect(throws: PostgresError.self) {
            try connection.transaction(readOnly: true) {
                // Temporary tables can be written; creating a table cannot.
                try connection.execute("CREATE TEMPORARY TABLE written (id bigint)")
            }
        }
        #expect(error?.isReadOnlyTransaction == true)
        #expect(connection.transactionStatus == .idle)
    }

    @Test("a transaction cannot open inside another")
    func nested() throws {
        let connection = try connectionWithTable()
        try connection.transaction {
            let error = #expect(throws: PostgresError.self) { try connection.transaction {} }
            #expect(error?.kind == .invalidArgument)
        }
        #expect(connection.transactionStatus == .idle)
    }
}
