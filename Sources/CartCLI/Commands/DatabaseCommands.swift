import CartCore
import CartSQLite

/// `cart db …`: the database file itself.
enum DatabaseCommands {
    static let group = CommandSpec(
        "db", abstract: "Inspect, migrate, check or initialise the database.",
        subcommands: [status, migrate, check, initialise])

    static let status = CommandSpec(
        "status", abstract: "Show the database's path, schema version, migrations, settings and counts.",
        action: { try showStatus($0) })

    static let migrate = CommandSpec(
        "migrate", abstract: "Apply pending schema migrations (other commands do this on their own).",
        action: { try applyMigrations($0) })

    static let check = CommandSpec(
        "check", abstract: "Run SQLite's integrity check; exits 1 if the file is damaged.",
        action: { try checkIntegrity($0) })

    static let initialise = CommandSpec(
        "init", abstract: "Create the database with these settings, or change them on an existing one.",
        discussion:
            """
            A new database gets the options given and the defaults for the others (USD, 99 units per \
            line, 100 lines per cart); on an existing one, the options not given keep their current \
            values. The currency cannot change once products exist. Other commands create the database \
            with the defaults on first use.
            """,
        options: [
            .option(
                "--currency", "code", help: "The store currency, an ISO 4217 code such as USD, EUR, JPY or KWD."),
            .option(
                "--max-line-quantity", "n", .integer(StoreSettings.maxLineQuantityRange),
                help: "The most units one cart line may hold, from \(rangeText(StoreSettings.maxLineQuantityRange))."),
            .option(
                "--max-lines", "n", .integer(StoreSettings.maxLinesPerCartRange),
                help: "The most lines one cart may hold, from \(rangeText(StoreSettings.maxLinesPerCartRange))."),
        ],
        action: { try initialiseDatabase($0) })

    // MARK: - Actions

    static func showStatus(_ runner: CommandRunner) throws {
        var fields: [(key: String, value: JSONValue)] = [("store", .string(runner.globals.store.rawValue))]
        var lines: [(String, String)] = []
        var schemaReady = true
        if runner.globals.store == .sqlite {
            let path = try runner.databasePath()
            fields.append(("path", .string(path)))
            lines.append(("Database", path))
            try BackendFactory.refuseNonFile(path)
            // An empty file is a database not created yet: report it as such without writing to it.
            guard FileSystem.hasContent(path) else {
                if runner.json { return try runner.emit(.object(fields + [("exists", .bool(false))])) }
                return try runner.line("No database at \(path) yet; any command creates it (or 'cart db init').")
            }
            let status = try BackendFactory.openSQLite(path: path, busyTimeout: runner.busyTimeout, migrate: false)
                .status()
            schemaReady = status.pendingMigrations.isEmpty
            fields += [
                ("exists", .bool(true)), ("schemaVersion", .int(status.schemaVersion)),
                ("migrations", .array(status.appliedMigrations.map(migrationJSON))),
                ("pendingMigrations", .array(status.pendingMigrations.map(JSONValue.string))),
                ("journalMode", .string(status.journalMode)), ("sqliteVersion", .string(status.sqliteVersion)),
            ]
            lines.append(
                (
                    "Schema",
                    "version \(status.schemaVersion), SQLite \(status.sqliteVersion), journal \(status.journalMode)"
                ))
            for migration in status.appliedMigrations {
                lines.append(("Migration", "\(migration.name) applied \(UTCCalendar.iso8601(migration.appliedAt))"))
            }
            for name in status.pendingMigrations { lines.append(("Pending", "\(name) (run 'cart db migrate')")) }
        } else {
            lines.append(("Database", "memory (nothing is kept)"))
        }
        if schemaReady {
            let service = try runner.service()
            let settings = try runner.storeSettings()
            let counts = try service.counts()
            fields += [
                ("currency", .string(settings.currency.code)), ("maxLineQuantity", .int(settings.maxLineQuantity)),
                ("maxLinesPerCart", .int(settings.maxLinesPerCart)), ("products", .int(counts.products)),
                ("carts", .int(counts.carts)), ("orders", .int(counts.orders)),
            ]
            lines += [
                ("Currency", settings.currency.code),
                ("Caps", capsText(settings, joinedBy: ", ")),
                ("Products", String(counts.products)), ("Carts", String(counts.carts)),
                ("Orders", String(counts.orders)),
            ]
        }
        if runner.json { return try runner.emit(.object(fields)) }
        for (label, value) in lines {
            try runner.line(TextLayout.padded(label + ":", to: 11) + value)
        }
    }

    static func applyMigrations(_ runner: CommandRunner) throws {
        guard runner.globals.store == .sqlite else {
            if runner.json { return try runner.emit(.object([("applied", .array([]))])) }
            return try runner.line("The memory store has no schema to migrate.")
        }
        let repository = try BackendFactory.openSQLite(
            path: try runner.databasePath(), busyTimeout: runner.busyTimeout, migrate: false)
        let applied = try repository.migrate()
        if runner.json { return try runner.emit(.object([("applied", .array(applied.map(JSONValue.string)))])) }
        if applied.isEmpty {
            try runner.line("The database is up to date (schema version \(try repository.status().schemaVersion)).")
        } else {
            try runner.line(
                "Applied \(Plural.count(applied.count, "migration")): \(applied.joined(separator: ", "))."
            )
        }
    }

    /// How many problems `db check` lists for people; `--json` lists them all.
    static let problemsShown = 20
    /// SQLite's integrity check stops after this many problems.
    static let integrityCheckLimit = 100

    static func checkIntegrity(_ runner: CommandRunner) throws {
        var problems: [String] = []
        if runner.globals.store == .sqlite {
            let path = try runner.databasePath()
            try BackendFactory.refuseNonFile(path)
            guard FileSystem.hasContent(path) else {
                throw CommandFailure("No database at '\(DisplayText.clean(path))'.")
            }
            let result = try BackendFactory.openSQLite(path: path, busyTimeout: runner.busyTimeout, migrate: false)
                .integrityCheck()
            problems = result == ["ok"] ? [] : integrityProblems(result)
        }
        if runner.json {
            try runner.emit(
                .object([("ok", .bool(problems.isEmpty)), ("problems", .array(problems.map(JSONValue.string)))]))
        } else if problems.isEmpty {
            try runner.line("ok")
        } else {
            for problem in problems.prefix(problemsShown) { try runner.line(problem) }
            if problems.count > problemsShown {
                try runner.line("… and \(problems.count - problemsShown) more (--json lists them all)")
            }
        }
        guard problems.isEmpty else {
            let count = problems.count >= integrityCheckLimit ? "at least \(problems.count)" : "\(problems.count)"
            throw CommandFailure("The integrity check found \(count) \(problems.count == 1 ? "problem" : "problems").")
        }
    }

    /// One entry per problem: SQLite reports several in one row, one per line, under a
    /// `*** in database main ***` heading that is not a problem itself.
    static func integrityProblems(_ rows: [String]) -> [String] {
        rows.flatMap { $0.split(whereSeparator: \.isNewline) }
            .filter { !$0.hasPrefix("*** in database ") && !$0.allSatisfy(\.isWhitespace) }
            .map(String.init)
    }

    static func initialiseDatabase(_ runner: CommandRunner) throws {
        let invocation = runner.invocation
        var currency: Currency?
        if let code = invocation.text("--currency") {
            do {
                currency = try Currency(code: code)
            } catch {
                throw UsageError(
                    "The value '\(DisplayText.clean(code))' is invalid for '--currency <code>': "
                        + "not an ISO 4217 code this build knows.",
                    command: invocation.command)
            }
        }
        let maxLineQuantity = invocation.integer("--max-line-quantity")
        let maxLines = invocation.integer("--max-lines")
        let existed = try runner.globals.store == .sqlite && FileSystem.hasContent(runner.databasePath())
        var initial = StoreSettings.defaults
        if let currency { initial.currency = currency }
        if let maxLineQuantity { initial.maxLineQuantity = maxLineQuantity }
        if let maxLines { initial.maxLinesPerCart = maxLines }
        let service = try runner.service(initialSettings: initial)
        let settings = try service.updateSettings(
            currency: currency, maxLineQuantity: maxLineQuantity, maxLinesPerCart: maxLines)
        if runner.json {
            return try runner.emit(
                .object([
                    ("created", .bool(!existed)), ("currency", .string(settings.currency.code)),
                    ("maxLineQuantity", .int(settings.maxLineQuantity)),
                    ("maxLinesPerCart", .int(settings.maxLinesPerCart)),
                ]))
        }
        let place = runner.globals.store == .sqlite ? try runner.databasePath() : "the memory store"
        let summary =
            "\(settings.currency.code), at most \(capsText(settings, joinedBy: " and "))"
        try runner.line(existed ? "Updated \(place): \(summary)." : "Created \(place): \(summary).")
    }

    /// `1 to 10000`, for help text.
    private static func rangeText(_ range: ClosedRange<Int>) -> String {
        "\(range.lowerBound) to \(range.upperBound)"
    }

    /// `99 units per line, 100 lines per cart`, singular where a cap is 1.
    private static func capsText(_ settings: StoreSettings, joinedBy separator: String) -> String {
        Plural.count(settings.maxLineQuantity, "unit") + " per line" + separator
            + Plural.count(settings.maxLinesPerCart, "line") + " per cart"
    }

    private static func migrationJSON(_ migration: AppliedMigration) -> JSONValue {
        .object([
            ("name", .string(migration.name)), ("checksum", .string(migration.checksum)),
            ("appliedAt", .string(UTCCalendar.iso8601(migration.appliedAt))),
        ])
    }
}
