import CartCore

/// `cart db copy`: a whole store into an empty one, of any backend, through `StoreCopy`.
enum DatabaseCopyCommand {
    static let to = Option<String>(
        required: "--to", "location", .location,
        help: "The store to copy into, which must be empty: a SQLite file path, postgresql://…, or memory:.")
    static let from = Option<String?>(
        "--from", "location", .location, help: "The store to copy from, instead of the one --db names.")

    static let spec = CommandSpec(
        "copy", abstract: "Copy the whole store into an empty store of any backend.",
        discussion: """
            Copies the settings, every product, every cart with its lines and version, and every order \
            with its number, instant and idempotency key, as they are at one moment. The target is \
            written in one transaction: it holds the whole copy or nothing. A target that holds any \
            product, cart or order is refused; one that does not exist yet is created. On a terminal, \
            a line on stderr shows the progress of a big copy.
            """,
        options: [to, from],
        action: { try run($0) })

    static func run(_ runner: CommandRunner) throws {
        let sourceLocation = try runner[from] ?? runner.location
        let targetLocation = try runner[to]
        let (source, target) = (Stores.registry.displayLocation(sourceLocation), Stores.registry.displayLocation(targetLocation))
        // The same file under another spelling (`./shop.sqlite3`, a link) is the same store too.
        let sameFile = FileSystem.isSameFile(targetLocation, sourceLocation)
        guard (targetLocation != sourceLocation && !sameFile) || Stores.keepsNothing(sourceLocation) else {
            throw UsageError(
                "'\(to.spec.name)' names the store copied from; give the location of another store.",
                command: runner.invocation.command)
        }
        let options = StoreOptions(busyTimeout: runner.busyTimeout)
        let sourceStore: any CartRepository
        let targetStore: any CartRepository
        do {
            var existing = options
            existing.createIfMissing = false
            sourceStore = try Stores.registry.open(sourceLocation, options: existing)
        } catch StoreLocationError.noStore {
            throw CommandFailure("No store at '\(DisplayText.escaped(source))' yet; there is nothing to copy.")
        } catch {
            throw StoreFailure(location: source, context: nil, error: error)
        }
        do {
            targetStore = try Stores.registry.open(targetLocation, options: options)
        } catch {
            throw StoreFailure(location: target, context: nil, error: error)
        }

        // A target made with `db init` may have settings of its own, which the source's replace:
        // the run says so. One created here, or left at the defaults, has nothing to lose.
        let targetSettings = (try? CartService(repository: targetStore).settings()).flatMap { $0 == .defaults ? nil : $0 }
        let progress = ProgressLine(on: runner.stderr)
        defer { progress.finish() }
        let copied: StoreCounts
        do {
            copied = try StoreCopy.copy(from: sourceStore, to: targetStore) { report in
                progress.update { "Copying: " + counts(report.copied, of: report.total) }
            }
        } catch StoreCopyError.targetNotEmpty(let present) {
            throw CommandFailure(
                "'\(DisplayText.escaped(target))' is not empty (it holds \(counts(present))); "
                    + "a store is copied only into an empty one: give a file that does not exist yet, or an empty database.")
        } catch {
            let context = "Cannot copy '\(DisplayText.escaped(source))' into '\(DisplayText.escaped(target))'"
            throw StoreFailure(location: nil, context: context, error: error)
        }
        progress.finish()
        runner.noteSavedChange()
        if Stores.keepsNothing(targetLocation) {
            // The copy ran whole (every row read and written), so it checks the source, but
            // nothing of it outlives the command.
            try runner.stderr.write("Note: the in-memory store keeps nothing; the copy is lost when this command ends.\n")
        }
        if runner.json { return try runner.emit(CLIJSON.Copied(copied: copied, from: source, to: target)) }
        try runner.line(
            "Copied \(counts(copied)) from '\(DisplayText.escaped(source))' to '\(DisplayText.escaped(target))'.")
        if let targetSettings, let copiedSettings = try? CartService(repository: targetStore).settings(),
            copiedSettings != targetSettings
        {
            try runner.line(
                "The target's settings (\(settingsText(targetSettings))) were replaced by the source's "
                    + "(\(settingsText(copiedSettings))).")
        }
    }

    /// `USD, 99 units per line, 100 lines per cart`.
    private static func settingsText(_ settings: StoreSettings) -> String {
        settings.currency.code + ", " + DatabaseCommands.capsText(settings, joinedBy: ", ")
    }

    /// `3 products, 1 cart and 0 orders`.
    private static func counts(_ counts: StoreCounts) -> String {
        Plural.count(counts.products, "product") + ", " + Plural.count(counts.carts, "cart") + " and "
            + Plural.count(counts.orders, "order")
    }

    /// `2000 of 5000 products, 0 of 800 carts, 0 of 12000 orders`.
    private static func counts(_ copied: StoreCounts, of total: StoreCounts) -> String {
        "\(copied.products) of \(total.products) products, \(copied.carts) of \(total.carts) carts, "
            + "\(copied.orders) of \(total.orders) orders"
    }
}
