/// The global options after applying precedence: command line, then environment, then default.
struct GlobalSettings {
    /// The store to open.
    var location: String
    /// Where `location` came from: `--db`, `--store`, `CART_DB` or `CART_STORE`; `nil` for the
    /// default file.
    var locationSource: String?
    /// `CART_DB` when it was set but `CART_STORE=memory` chose the in-memory store instead.
    var ignoredLocationSource: String?
    var cartID: String
    /// Whether the cart came from `--cart` or `CART_ID` rather than the default, which makes
    /// `cart orders` filter by it.
    var cartWasChosen: Bool
    var json: Bool
    var busyTimeoutMilliseconds: Int

    /// Resolves every global option of `invocation`.
    ///
    /// - Throws: `UsageError` when an environment variable holds a malformed value, or when
    ///   `--db` and `--store` are both given; `CommandFailure` when no default location can
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
        var settings = GlobalSettings(
            location: "", locationSource: nil, ignoredLocationSource: nil, cartID: "default", cartWasChosen: false,
            json: invocation.flag(GlobalOptions.json.name),
            busyTimeoutMilliseconds: try value(GlobalOptions.busyTimeout)?.integer ?? 5000)
        if let cart = try value(GlobalOptions.cart)?.text {
            settings.cartID = cart
            settings.cartWasChosen = true
        }
        try settings.resolveLocation(invocation, fromEnvironment: fromEnvironment)
        if settings.locationSource == nil { settings.location = try defaultLocation(environment: environment) }
        return settings
    }

    /// The store the command line or the environment names, if any: `--db`, else `--store
    /// memory`, else `CART_STORE=memory`, which overrides `CART_DB` as it always did, else
    /// `CART_DB`. `sqlite` as an alias leaves the choice to `CART_DB` and the default.
    private mutating func resolveLocation(
        _ invocation: Invocation, fromEnvironment: (OptionSpec) throws(UsageError) -> ParsedValue?
    ) throws(UsageError) {
        let db = invocation.options[GlobalOptions.db.name]?.text
        let alias = invocation.options[GlobalOptions.store.name]?.text.flatMap(StoreAlias.init(rawValue:))
        if db != nil, alias != nil {
            throw UsageError(
                "'--db' and '--store' both choose the store; give only '--db' ('--store memory' is '--db memory:').",
                command: invocation.command)
        }
        let environmentDB = try fromEnvironment(GlobalOptions.db)?.text
        if let db {
            (location, locationSource) = (db, GlobalOptions.db.name)
        } else if let memory = alias?.location {
            (location, locationSource) = (memory, GlobalOptions.store.name)
        } else if alias == nil,
            let memory = try fromEnvironment(GlobalOptions.store)?.text.flatMap(StoreAlias.init(rawValue:))?.location
        {
            (location, locationSource) = (memory, GlobalOptions.store.environment)
            if environmentDB != nil { ignoredLocationSource = GlobalOptions.db.environment }
        } else if let environmentDB {
            (location, locationSource) = (environmentDB, GlobalOptions.db.environment)
        }
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
    var isMemory: Bool { Stores.keepsNothing(location) }

    /// What to tell people after a command that ran on the in-memory store; `nil` otherwise.
    var memoryStoreNote: String? {
        guard isMemory else { return nil }
        var note = "Note: the in-memory store keeps nothing"
        if let ignoredLocationSource { note += " and ignores \(ignoredLocationSource)" }
        note += "; every change is lost when this command ends"
        if locationSource == GlobalOptions.store.name {
            note += " ('--store memory' is deprecated; use '--db memory:')"
        } else if let variable = GlobalOptions.store.environment, locationSource == variable {
            note += " (\(variable)=memory is deprecated; use \(GlobalOptions.db.environment ?? "CART_DB")=memory:)"
        }
        return note + "."
    }
}
