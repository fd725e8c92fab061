/// The global options after applying precedence: command line, then environment, then default.
struct GlobalSettings {
    /// The store to open: `--db`, `--store`, `CART_DB`, `CART_STORE`, else the default file.
    var location: String
    /// Where `location` came from, for messages: `--db`, `CART_DB`, or `nil` for the default.
    var locationSource: String?
    var cartID: String
    /// Whether the cart came from `--cart` or `CART_ID` rather than the default, which makes
    /// `cart orders` filter by it.
    var cartWasChosen: Bool
    var json: Bool
    var busyTimeoutMilliseconds: Int

    /// Resolves every global option of `invocation`.
    ///
    /// - Throws: `UsageError` when an environment variable holds a malformed value, or when
    ///   `--db` and `--store` name two stores; `CommandFailure` when no default location can
    ///   be placed.
    static func resolve(_ invocation: Invocation, environment: [String: String]) throws -> GlobalSettings {
        func fromEnvironment(_ option: OptionSpec) throws(UsageError) -> ParsedValue? {
            // An empty variable counts as unset, as shells make `CART_DB= cart …` easy to write.
            guard let variable = option.environment, let raw = environment[variable], !raw.isEmpty else { return nil }
            return try CommandLineParser.convert(raw, kind: option.kind, label: variable, invocation.command)
        }
        func value(_ option: OptionSpec) throws(UsageError) -> ParsedValue? {
            if let given = invocation.options[option.name] { return given }
            return try fromEnvironment(option)
        }
        let given = try Self.location(invocation, fromEnvironment: fromEnvironment)
        let cart = try value(GlobalOptions.cart)?.text
        return GlobalSettings(
            location: try given?.location ?? defaultLocation(environment: environment),
            locationSource: given?.source,
            cartID: cart ?? "default",
            cartWasChosen: cart != nil,
            json: invocation.flag(GlobalOptions.json.name),
            busyTimeoutMilliseconds: try value(GlobalOptions.busyTimeout)?.integer ?? 5000)
    }

    /// The location the command line or the environment gives, and where it came from; the
    /// command line's `--db` or `--store` first, then `CART_DB`, then `CART_STORE`.
    private static func location(
        _ invocation: Invocation, fromEnvironment: (OptionSpec) throws(UsageError) -> ParsedValue?
    ) throws(UsageError) -> (location: String, source: String)? {
        let db = invocation.options[GlobalOptions.db.name]?.text
        let store = invocation.options[GlobalOptions.store.name]?.text
        if db != nil, store != nil {
            throw UsageError(
                "'--db' and '--store' both name the store; give one ('--store memory' is '--db memory:').",
                command: invocation.command)
        }
        if let db { return (db, "--db") }
        if let store { return Stores.aliases[store]?.map { ($0, "--store") } ?? nil }
        if let db = try fromEnvironment(GlobalOptions.db)?.text { return (db, "CART_DB") }
        if let store = try fromEnvironment(GlobalOptions.store)?.text {
            return Stores.aliases[store]?.map { ($0, "CART_STORE") } ?? nil
        }
        return nil
    }

    /// `${XDG_DATA_HOME:-$HOME/.local/share}/cart/cart.sqlite3`.
    ///
    /// - Throws: `CommandFailure` when neither `XDG_DATA_HOME` nor `HOME` can place it.
    static func defaultLocation(environment: [String: String]) throws -> String {
        // The XDG spec says relative values are invalid and must be ignored.
        if let data = environment["XDG_DATA_HOME"], data.hasPrefix("/") {
            return data + "/cart/cart.sqlite3"
        }
        guard let home = environment["HOME"], !home.isEmpty else {
            throw CommandFailure("No place for the store: set --db, CART_DB, XDG_DATA_HOME or HOME.")
        }
        return home + "/.local/share/cart/cart.sqlite3"
    }

    /// Whether the store keeps nothing after the command.
    var isMemory: Bool { location == "memory:" }

    /// What to tell people after a command that ran on the memory store; `nil` otherwise.
    var memoryStoreNote: String? {
        guard isMemory else { return nil }
        return "Note: the memory: store keeps nothing; every change is lost when this command ends."
    }
}
