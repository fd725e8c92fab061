/// The options every command accepts, anywhere after `cart`.
enum GlobalOptions {
    static let db = Option<String?>(
        "--db", "location", .location,
        help:
            "The store: a SQLite file path (its directory is created if needed), a PostgreSQL database "
            + "(postgresql://…), or memory: (nothing is kept).",
        environment: "CART_DB", shownDefault: "${XDG_DATA_HOME:-~/.local/share}/cart/cart.sqlite3")
    static let store = Option<StoreAlias?>(
        "--store", "store", choices: StoreAlias.allCases,
        help: "Deprecated: '--store memory' is '--db memory:'; '--store sqlite' is CART_DB or the default file.",
        environment: "CART_STORE")
    static let cart = Option<String>(
        "--cart", "id", help: "The cart to act on.", environment: "CART_ID", default: "default")
    static let json = Flag("--json", help: "Print machine-readable JSON on stdout.")
    static let busyTimeout = Option<Int>(
        "--busy-timeout", "ms", 0...3_600_000,
        help: "How long to wait for a store locked by another process, in milliseconds.",
        environment: "CART_BUSY_TIMEOUT", default: 5000)
    static let version = Flag("--version", help: "Show the version.")
    static let help = Flag("--help", short: "-h", help: "Show help information.")

    /// In the order help lists them.
    static let all: [OptionSpec] = [
        db.spec, store.spec, cart.spec, json.spec, busyTimeout.spec, version.spec, help.spec,
    ]
}
