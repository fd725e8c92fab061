/// The options every command accepts, anywhere after `cart`.
enum GlobalOptions {
    static let db = OptionSpec.option(
        "--db", "location", .path,
        help: "The store: a SQLite file path (its directory is created if needed), or memory: (nothing is kept).",
        environment: "CART_DB", default: "${XDG_DATA_HOME:-~/.local/share}/cart/cart.sqlite3")
    static let store = OptionSpec.option(
        "--store", "store", .choice(StoreAlias.allCases.map(\.rawValue)),
        help: "Deprecated: '--store memory' is '--db memory:'; '--store sqlite' is CART_DB or the default file.",
        environment: "CART_STORE")
    static let cart = OptionSpec.option(
        "--cart", "id", help: "The cart to act on.", environment: "CART_ID", default: "default")
    static let json = OptionSpec.flag("--json", help: "Print machine-readable JSON on stdout.")
    static let busyTimeout = OptionSpec.option(
        "--busy-timeout", "ms", .integer(0...3_600_000),
        help: "How long to wait for a store locked by another process, in milliseconds.",
        environment: "CART_BUSY_TIMEOUT", default: "5000")
    static let version = OptionSpec.flag("--version", help: "Show the version.")
    static let help = OptionSpec.flag("--help", short: "-h", help: "Show help information.")

    /// In the order help lists them.
    static let all = [db, store, cart, json, busyTimeout, version, help]
}
