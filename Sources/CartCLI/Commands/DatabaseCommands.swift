import CartCore

/// `cart db …`: the store itself, through its backend's `StoreMaintenance`.
enum DatabaseCommands {
    static let group = CommandSpec(
        "db", abstract: "Inspect, migrate, check or initialise the store.",
        subcommands: [status, migrate, check, initialise, DatabaseCopyCommand.spec])

    static let status = CommandSpec(
        "status", abstract: "Show the store's location, schema version, migrations, settings and counts.",
        action: { try showStatus($0) })

    static let migrate = CommandSpec(
        "migrate", abstract: "Apply pending schema migrations (other commands do this on their own).",
        action: { try applyMigrations($0) })

    static let check = CommandSpec(
        "check", abstract: "Check the store for damage; exits 1 if it finds any.",
        action: { try checkIntegrity($0) })

    static let initialise = CommandSpec(
        "init", abstract: "Create the store with these settings, or change them on an existing one.",
        discussion:
            """
            A new store gets the options given and the defaults for the others (USD, 99 units per \
            line, 100 lines per cart); on an existing one, the options not given keep their current \
            values. The currency cannot change once products or orders exist. 'demo', 'products add', \
            'products import', 'db migrate', 'db copy --to' and 'serve' also create a store with \
            the defaults; other commands refuse one that does not exist, most often a mistyped --db.
            """,
        options: [currency, maxLineQuantity, maxLines],
        action: { try initialiseDatabase($0) })

    static let currency = Option<String?>(
        "--currency", "code", help: "The store currency, an ISO 4217 code such as USD, EUR, JPY or KWD.")
    static let maxLineQuantity = Option<Int?>(
        "--max-line-quantity", "n", StoreSettings.maxLineQuantityRange,
        help: "The most units one cart line may hold, from \(rangeText(StoreSettings.maxLineQuantityRange)).")
    static let maxLines = Option<Int?>(
        "--max-lines", "n", StoreSettings.maxLinesPerCartRange,
        help: "The most lines one cart may hold, from \(rangeText(StoreSettings.maxLinesPerCartRange)).")

    // MARK: - Actions

    static func showStatus(_ runner: CommandRunner) throws {
        let store: any MaintainableRepository
        do {
            store = try runner.openStore()
        } catch StoreLocationError.noStore {
            // A store not created yet is reported as such, without creating it.
            if runner.json {
                let kind = try Stores.registry.backend(for: runner.location).kind
                return try runner.emit(CLIJSON.Status(store: kind, location: runner.displayLocation, exists: false))
            }
            return try runner.line(runner.noStoreMessage)
        }
        let status = try store.status()
        var json = CLIJSON.Status(
            store: status.kind, location: status.location, exists: true, schemaVersion: status.schemaVersion,
            migrations: status.appliedMigrations.map(CLIJSON.Status.Migration.init),
            pendingMigrations: status.pendingMigrations,
            details: Dictionary(status.details.map { ($0.key, CLIJSON.Status.Detail(detail: $0)) }) { _, last in last })
        var lines: [(String, String)] = [
            // A path may hold a terminal escape or a line break, shown escaped as in every message.
            ("Store", DisplayText.escaped(status.location)), ("Backend", status.kind),
            ("Schema", "version \(status.schemaVersion)"),
        ]
        for detail in status.details { lines.append((detail.label, detail.value)) }
        for migration in status.appliedMigrations {
            lines.append(("Migration", "\(migration.name) applied \(UTCCalendar.iso8601(migration.appliedAt))"))
        }
        for name in status.pendingMigrations { lines.append(("Pending", "\(name) (run 'cart db migrate')")) }
        // Settings another client damaged fail the command, after everything else is shown:
        // this is the command to run when something is wrong.
        var damagedSettings: (any Error)?
        if status.pendingMigrations.isEmpty {
            let service = CartService(repository: store)
            do {
                let settings = try service.settings()
                json.settings = settings
                lines += [("Currency", settings.currency.code), ("Caps", capsText(settings, joinedBy: ", "))]
            } catch where ErrorCategory(of: error) == .damagedStore {
                damagedSettings = error
            }
            let counts = try service.counts()
            json.counts = counts
            lines += [
                ("Products", String(counts.products)), ("Carts", String(counts.carts)), ("Orders", String(counts.orders)),
            ]
        }
        if runner.json {
            try runner.emit(json)
        } else {
            let width = lines.map { $0.0.count }.max() ?? 0
            for (label, value) in lines {
                try runner.line(TextLayout.padded(label + ":", to: width + 2) + value)
            }
        }
        if let damagedSettings { throw damagedSettings }
    }

    static func applyMigrations(_ runner: CommandRunner) throws {
        let store = try runner.openStore(create: true)
        let (applied, created) = try store.migrateReportingCreation()
        if !applied.isEmpty { runner.noteSavedChange() }
        if created { runner.noteCreatedStore() }
        // Migrations cannot mend a table or index someone changed outside cart, so such a store
        // is not called up to date. The schema alone is compared, not the rows: cheap at any size.
        let differences = created ? [] : try store.schemaDifferences()
        if runner.json {
            try runner.emit(CLIJSON.Migrated(applied: applied))
        } else if !applied.isEmpty {
            try runner.line(
                "Applied \(Plural.count(applied.count, "migration")): \(applied.joined(separator: ", "))."
            )
        } else if differences.isEmpty {
            let version = try store.status().schemaVersion
            try runner.line(
                version == 0
                    ? "The store has no schema to migrate." : "The store is up to date (schema version \(version)).")
        }
        guard differences.isEmpty else {
            throw CommandFailure(
                "The schema of '\(DisplayText.escaped(runner.displayLocation))' was changed outside cart: "
                    + "\(Plural.count(differences.count, "difference")) from what its migrations made, which "
                    + "migrating does not mend; 'cart db check' names them.")
        }
    }

    /// How many problems `db check` lists for people; `--json` lists them all.
    static let problemsShown = 20
    /// SQLite's integrity check stops after this many problems.
    static let integrityCheckLimit = 100

    /// Whether an error that keeps the store from opening is one of `db check`'s findings:
    /// damage, or a recorded migration whose SQL differs from this build's copy (changed in
    /// the store, or in the build), which other commands refuse as an incompatible store.
    static func isFinding(_ error: any Error) -> Bool {
        if case MigrationError.checksumMismatch = error { return true }
        return ErrorCategory(of: error) == .damagedStore
    }

    static func checkIntegrity(_ runner: CommandRunner) throws {
        let problems: [String]
        do {
            problems = try runner.openStore().check()
        } catch StoreLocationError.noStore {
            throw CommandFailure(
                "No store at '\(DisplayText.escaped(runner.displayLocation))' yet\(runner.memoryHint); there is nothing to check.")
        } catch where isFinding(error) {
            // Damage that keeps the store from opening is the check's finding, too.
            let reason =
                (error as? MigrationError).map { TextLayout.continuing($0.description) }
                ?? (error as? any CategorizedError)?.reason ?? "it is damaged, or not a cart store"
            problems = ["it cannot be read as a cart store: " + reason]
        }
        if runner.json {
            try runner.emit(CLIJSON.Checked(ok: problems.isEmpty, problems: problems))
        } else if problems.isEmpty {
            try runner.line("ok")
        } else {
            for problem in problems.prefix(problemsShown) { try runner.line(DisplayText.escaped(problem)) }
            if problems.count > problemsShown {
                try runner.line("… and \(problems.count - problemsShown) more (--json lists them all)")
            }
        }
        guard problems.isEmpty else {
            let count = problems.count >= integrityCheckLimit ? "at least \(problems.count)" : "\(problems.count)"
            throw CommandFailure(
                "The check found \(count) \(problems.count == 1 ? "problem" : "problems") in "
                    + "'\(DisplayText.escaped(runner.displayLocation))'.")
        }
    }

    static func initialiseDatabase(_ runner: CommandRunner) throws {
        var currency: Currency?
        if let code = try runner[Self.currency] {
            do {
                currency = try Currency(code: code)
            } catch {
                throw UsageError(
                    "The value '\(DisplayText.clean(code))' is invalid for '\(Self.currency.spec.synopsis)': "
                        + "not an ISO 4217 code this build knows.",
                    command: runner.invocation.command)
            }
        }
        let maxLineQuantity = try runner[Self.maxLineQuantity]
        let maxLines = try runner[Self.maxLines]
        var initial = StoreSettings.defaults
        if let currency { initial.currency = currency }
        if let maxLineQuantity { initial.maxLineQuantity = maxLineQuantity }
        if let maxLines { initial.maxLinesPerCart = maxLines }
        let store = try runner.openStore(create: true, initialSettings: initial)
        // A store whose schema is empty is new: its first migration creates it with `initial`.
        let (migrated, created) = try store.migrateReportingCreation()
        let service = CartService(repository: store)
        let before = created ? nil : try service.settings()
        // Settings the store already has are not written again: a store that cannot be written
        // to (read-only) is then reported as it is.
        let current = try before ?? service.settings()
        let asked = StoreSettings(
            currency: currency ?? current.currency, maxLineQuantity: maxLineQuantity ?? current.maxLineQuantity,
            maxLinesPerCart: maxLines ?? current.maxLinesPerCart)
        let settings =
            asked == current
            ? current
            : try service.updateSettings(currency: currency, maxLineQuantity: maxLineQuantity, maxLinesPerCart: maxLines)
        if !migrated.isEmpty || before != settings { runner.noteSavedChange() }
        if runner.json {
            return try runner.emit(CLIJSON.Initialised(created: created, settings: settings))
        }
        let place = runner.globals.isMemory ? "the in-memory store" : DisplayText.escaped(runner.displayLocation)
        let summary =
            "\(settings.currency.code), at most \(capsText(settings, joinedBy: " and "))"
        let verb = created ? "Created" : before == settings ? "Unchanged" : "Updated"
        try runner.line("\(verb) \(place): \(summary).")
    }

    /// `1 to 10000`, for help text.
    private static func rangeText(_ range: ClosedRange<Int>) -> String {
        "\(range.lowerBound) to \(range.upperBound)"
    }

    /// `99 units per line, 100 lines per cart`, singular where a cap is 1.
    static func capsText(_ settings: StoreSettings, joinedBy separator: String) -> String {
        Plural.count(settings.maxLineQuantity, "unit") + " per line" + separator
            + Plural.count(settings.maxLinesPerCart, "line") + " per cart"
    }
}
