/// The global options after applying precedence: command line, then environment, then default.
struct GlobalSettings {
    /// The store to open.
    var location: String
    /// How `location` was chosen, for the note after a command on the in-memory store.
    var locationChoice: LocationChoice
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
        let cart = GlobalOptions.cart
        let (location, choice) = try chosenLocation(invocation, environment: environment)
        return GlobalSettings(
            location: try location ?? defaultLocation(environment: environment), locationChoice: choice,
            cartID: try invocation.value(of: cart, environment: environment),
            cartWasChosen: invocation.isGiven(cart) || invocation.isSet(cart, in: environment),
            json: invocation[GlobalOptions.json],
            busyTimeoutMilliseconds: try invocation.value(of: GlobalOptions.busyTimeout, environment: environment))
    }

    /// How the store was chosen.
    enum LocationChoice {
        /// By `--db` or `CART_DB`, or the default file.
        case location
        /// By the deprecated `--store memory`.
        case storeOption
        /// By the deprecated `CART_STORE=memory`, which overrides a `CART_DB` that is set.
        case storeVariable(overridingDB: Bool)
    }

    /// The store the command line or the environment names (`nil` for the default file), and
    /// how: `--db`, else `--store memory`, else `CART_STORE=memory`, which overrides `CART_DB`
    /// so that scripts written for the alias keep their meaning, else `CART_DB`. `sqlite` as an
    /// alias leaves the choice to `CART_DB` and the default.
    private static func chosenLocation(
        _ invocation: Invocation, environment: [String: String]
    ) throws(UsageError) -> (String?, LocationChoice) {
        let (db, store) = (GlobalOptions.db, GlobalOptions.store)
        let givenAlias = try invocation.value(of: store)
        if let given = try invocation.value(of: db) {
            guard givenAlias == nil else {
                throw UsageError(
                    "'\(db.spec.name)' and '\(store.spec.name)' both choose the store; give only '\(db.spec.name)' "
                        + "('--store memory' is '--db memory:').",
                    command: invocation.command)
            }
            return (given, .location)
        }
        if let memory = givenAlias?.location { return (memory, .storeOption) }
        let fromVariable = try invocation.variable(of: db, in: environment)
        if givenAlias == nil, let memory = try invocation.variable(of: store, in: environment)?.location {
            return (memory, .storeVariable(overridingDB: fromVariable != nil))
        }
        return (fromVariable, .location)
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
        let note = "Note: the in-memory store keeps nothing"
        let lost = "; every change is lost when this command ends"
        switch locationChoice {
        case .location:
            return note + lost + "."
        case .storeOption:
            return note + lost + " ('--store memory' is deprecated; use '--db memory:')."
        case .storeVariable(let overridingDB):
            return note + (overridingDB ? " and ignores CART_DB" : "") + lost
                + " (CART_STORE=memory is deprecated; use CART_DB=memory:)."
        }
    }
}
