/// The global options after applying precedence: command line, then environment, then default.
struct GlobalSettings {
    var store: StoreKind
    /// The database path given by `--db` or `CART_DB`; `nil` means the default location.
    var explicitDatabasePath: String?
    /// Where `explicitDatabasePath` came from: `--db` or `CART_DB`.
    var databasePathSource: String?
    var cartID: String
    /// Whether the cart came from `--cart` or `CART_ID` rather than the default, which makes
    /// `cart orders` filter by it.
    var cartWasChosen: Bool
    var json: Bool
    var busyTimeoutMilliseconds: Int

    /// Resolves every global option of `invocation`.
    ///
    /// - Throws: `UsageError` when an environment variable holds a malformed value.
    static func resolve(_ invocation: Invocation, environment: [String: String]) throws(UsageError) -> GlobalSettings {
        func value(_ option: OptionSpec) throws(UsageError) -> ParsedValue? {
            if let given = invocation.options[option.name] { return given }
            // An empty variable counts as unset, as shells make `CART_DB= cart …` easy to write.
            guard let variable = option.environment, let raw = environment[variable], !raw.isEmpty else { return nil }
            return try CommandLineParser.convert(raw, kind: option.kind, label: variable, invocation.command)
        }
        let store = try value(GlobalOptions.store)?.text.flatMap(StoreKind.init(rawValue:)) ?? .sqlite
        let cart = try value(GlobalOptions.cart)?.text
        let path = try value(GlobalOptions.db)?.text
        return GlobalSettings(
            store: store,
            explicitDatabasePath: path,
            databasePathSource: path == nil ? nil : invocation.has(GlobalOptions.db.name) ? "--db" : "CART_DB",
            cartID: cart ?? "default",
            cartWasChosen: cart != nil,
            json: invocation.flag(GlobalOptions.json.name),
            busyTimeoutMilliseconds: try value(GlobalOptions.busyTimeout)?.integer ?? 5000)
    }

    /// What to tell people after a command that ran on the memory store; `nil` for SQLite.
    var memoryStoreNote: String? {
        guard store == .memory else { return nil }
        let ignored = databasePathSource.map { " and ignores \($0)" } ?? ""
        return "Note: --store memory keeps nothing\(ignored); every change is lost when this command ends."
    }

    /// The database file: `--db`, else `CART_DB`, else `${XDG_DATA_HOME:-$HOME/.local/share}/cart/cart.sqlite3`.
    ///
    /// - Throws: `CommandFailure` when neither `XDG_DATA_HOME` nor `HOME` can place the default.
    func databasePath(environment: [String: String]) throws -> String {
        if let explicitDatabasePath { return explicitDatabasePath }
        // The XDG spec says relative values are invalid and must be ignored.
        if let data = environment["XDG_DATA_HOME"], data.hasPrefix("/") {
            return data + "/cart/cart.sqlite3"
        }
        guard let home = environment["HOME"], !home.isEmpty else {
            throw CommandFailure("No place for the database: set --db, CART_DB, XDG_DATA_HOME or HOME.")
        }
        return home + "/.local/share/cart/cart.sqlite3"
    }
}
