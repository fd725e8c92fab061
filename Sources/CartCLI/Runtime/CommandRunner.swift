import CartCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// What a command's action works with: its parsed values, the resolved global options, the
/// service (opened on first use), stdout, and stderr for progress.
final class CommandRunner {
    let invocation: Invocation
    let globals: GlobalSettings
    let stdout: any CommandOutput
    /// Where messages that are not the command's output go (progress on a terminal).
    let stderr: any CommandOutput
    let style: TextStyle
    /// The variables the tool reads, for options declared with one.
    let environment: [String: String]
    private var openedService: CartService?
    private var recorder: CommitRecordingRepository?
    private var savedOutsideService = false
    private var changedNothing = false
    private var openedSettings: StoreSettings?
    private lazy var encoder = CartJSON.encoder()
    private let invokedAs: String
    private let searchPath: String?

    /// `environment` decides, with `stdout`, whether text is styled, and gives the values of
    /// options declared with a variable that the command line leaves out; `program` is `argv[0]`.
    init(
        invocation: Invocation, globals: GlobalSettings, environment: [String: String], stdout: any CommandOutput,
        stderr: any CommandOutput, program: String = "cart"
    ) {
        self.invocation = invocation
        self.globals = globals
        self.stdout = stdout
        self.environment = environment
        self.stderr = stderr
        self.style = TextStyle.forOutput(stdout, environment: environment)
        self.memoryStoreNote = globals.memoryStoreNote
        self.invokedAs = program
        self.searchPath = environment["PATH"]
    }

    /// The first words of a command the tool suggests: the program as a person types it
    /// (`cart`, or the path it was started by), then `--db` when the command line chose the
    /// store; `words` follow, all quoted for a shell.
    ///
    /// A password on the command line is not printed back; masked, the command would not run,
    /// so `--db` is left out and, when `noting`, a note after the command says to add it (a
    /// list of suggestions says it once instead; see `suggestionsOmitDB()`).
    func suggestedCommand(_ words: [String], noting: Bool = true) throws -> String {
        var start = [ProgramName.typed(invokedAs: invokedAs, searchPath: searchPath)]
        var note = ""
        if try isDBGiven() {
            if displayLocation == location {
                start += [GlobalOptions.db.spec.name, location]
            } else if noting {
                note = "  " + Self.omittedDBNote
            }
        }
        // A word from the store may hold a terminal escape: escaped, it is shown, not acted on.
        return DisplayText.escaped(ShellQuoting.command(start + words)) + note
    }

    /// Whether suggested commands leave out the command line's `--db`, whose password they
    /// would have to print.
    func suggestionsOmitDB() throws -> Bool {
        guard try isDBGiven() else { return false }
        return displayLocation != location
    }

    /// Whether the command line chose the store with `--db`.
    private func isDBGiven() throws -> Bool {
        guard isGiven(GlobalOptions.db) else { return false }
        return try self[GlobalOptions.db] != nil
    }

    /// What a suggestion without the command line's `--db` says of it.
    static let omittedDBNote = "(with your \(GlobalOptions.db.spec.name), whose password is not shown)"

    /// An option and its value as words of a suggested command: `--name=value` for a value
    /// that starts with `-` (a SKU or cart ID may), which would otherwise read as an option.
    static func optionWords(_ name: String, _ value: String) -> [String] {
        value.hasPrefix("-") ? [name + "=" + value] : [name, value]
    }

    /// Whether to print JSON rather than text for people.
    var json: Bool { globals.json }

    /// The cart the command acts on.
    var cartID: String { globals.cartID }

    /// The store the global options name.
    var location: String { globals.location }

    /// `location` as messages show it, with any password masked.
    var displayLocation: String { Stores.registry.displayLocation(location) }

    /// How long to wait for a store another process holds locked.
    var busyTimeout: Duration { .milliseconds(globals.busyTimeoutMilliseconds) }

    /// Opens the store for a `db` command: as it is (no migration), and only if it exists
    /// unless `create` says otherwise.
    func openStore(create: Bool = false, initialSettings: StoreSettings = .defaults) throws -> any MaintainableRepository {
        try Stores.registry.open(
            location,
            options: StoreOptions(
                busyTimeout: busyTimeout, initialSettings: initialSettings, migrate: false, createIfMissing: create))
    }

    /// The service over the chosen store, opened (and migrated) once. A command that puts
    /// something into the store creates it with the default settings if it does not exist;
    /// any other fails instead, since there is nothing for it there.
    func service() throws -> CartService {
        guard let service = try openService(creating: invocation.command.spec.createsStore) else {
            throw CommandFailure(noStoreMessage)
        }
        return service
    }

    /// Whether the store exists; one that does is opened for `service()`.
    func storeExists() throws -> Bool {
        try openService(creating: false) != nil
    }

    /// The service over the store, created if `creating` and missing (which a note on stderr
    /// says when this process created it, so that a mistyped `--db` is noticed); nil for a
    /// store that does not exist and is not to be created.
    private func openService(creating: Bool) throws -> CartService? {
        if let openedService { return openedService }
        let existing = StoreOptions(busyTimeout: busyTimeout, createIfMissing: false)
        let opened: any CartRepository
        do {
            opened = try Stores.registry.open(location, options: existing)
        } catch StoreLocationError.noStore {
            guard creating else { return nil }
            if try createStore() { noteCreatedStore() }
            opened = try Stores.registry.open(location, options: existing)
        }
        let repository = CommitRecordingRepository(opened)
        recorder = repository
        let service = CartService(repository: repository)
        openedService = service
        return service
    }

    /// Creates the store, which the command found missing, with the default settings, and
    /// says whether this process created it: another that found it missing at the same moment
    /// may have, and only the one that did says so.
    func createStore() throws -> Bool {
        let store = try Stores.registry.open(
            location, options: StoreOptions(busyTimeout: busyTimeout, migrate: false, createIfMissing: true))
        return try store.migrateReportingCreation().created
    }

    /// What a command says of a store that does not exist yet.
    var noStoreMessage: String {
        "No store at '\(DisplayText.escaped(displayLocation))' yet\(memoryHint); "
            + "'cart db init' creates it, as do 'cart demo', 'cart products add', 'cart products import', "
            + "'cart db migrate', 'cart db copy --to' and 'cart serve'."
    }

    /// Records that the command created the store, which did not exist, for the tool to say
    /// once the command has succeeded (`createdStoreNote`).
    func noteCreatedStore() {
        createdStoreNote = "Note: there was no store at '\(DisplayText.escaped(displayLocation))'\(memoryHint); a new one was created."
    }

    /// The note that the command created the store, so that a mistyped `--db` is noticed;
    /// `nil` when it opened one that existed.
    private(set) var createdStoreNote: String?

    /// Drops the note that the command created the store, for a command whose own output
    /// names the store it filled (`demo`).
    func dropCreatedStoreNote() {
        createdStoreNote = nil
    }

    /// A hint for `--db memory`, a file name, where `memory:`, the in-memory store, was meant.
    var memoryHint: String {
        location == "memory" ? " (the in-memory store is 'memory:')" : ""
    }

    /// Whether the command has committed a change to the store, through `service()` or as
    /// `noteSavedChange()` records, and did not find, as `noteNothingChanged()` records, that
    /// the store already was as asked.
    var hasCommitted: Bool { savedOutsideService || (recorder?.hasCommitted == true && !changedNothing) }

    /// Records that the command's write left the store as it was (a replayed checkout, a line
    /// set to the quantity it had): an output failure after it is then an ordinary failure,
    /// not a change that stays made.
    func noteNothingChanged() {
        changedNothing = true
    }

    /// The note that the in-memory store keeps nothing, for the tool to write once the
    /// command has succeeded; `nil` for a store that keeps its data, or once the command has
    /// written the note itself (`takeMemoryStoreNote()`).
    private(set) var memoryStoreNote: String?

    /// The in-memory store's note, for a command that writes it itself: a server says it as it
    /// starts, not as it stops.
    func takeMemoryStoreNote() -> String? {
        defer { memoryStoreNote = nil }
        return memoryStoreNote
    }

    /// Records that the command saved a change without `service()` (a migration, a copy), so
    /// that an output failure after it says the change stays made.
    func noteSavedChange() {
        savedOutsideService = true
    }

    /// The store settings, read once. While the store does not exist, a command that would
    /// create it reads the settings a new store starts with, so that a value they refuse (an
    /// amount with too many decimals, a malformed import file) creates nothing.
    func storeSettings() throws -> StoreSettings {
        if let openedSettings { return openedSettings }
        let settings: StoreSettings
        if invocation.command.spec.createsStore {
            settings = try storeExists() ? try service().settings() : .defaults
        } else {
            settings = try service().settings()
        }
        openedSettings = settings
        return settings
    }

    // MARK: - Values

    /// The option's value, typed as it is declared: from the command line, else its
    /// environment variable if it has one, else its default.
    ///
    /// - Throws: `UsageError` for a required option that is missing (the parser refuses such a
    ///   command line first), or for a malformed value in the option's variable.
    subscript<Value>(option: Option<Value>) -> Value {
        get throws(UsageError) { try invocation.value(of: option, environment: environment) }
    }

    /// The argument's value, typed as it is declared: from the command line, else its default.
    ///
    /// - Throws: `UsageError` for a required argument that is missing (the parser refuses
    ///   such a command line first).
    subscript<Value>(argument: Argument<Value>) -> Value {
        get throws(UsageError) { try invocation.value(of: argument) }
    }

    /// Whether the flag was given.
    subscript(flag: Flag) -> Bool { invocation[flag] }

    /// Whether the option or flag was on the command line, rather than left to its default.
    func isGiven(_ option: some OptionDeclaration) -> Bool { invocation.isGiven(option) }

    /// How an error names where `option`'s value came from: `'--listen <host:port>'` from the
    /// command line, `CART_LISTEN` from its variable, as the parser names a malformed variable.
    func label(of option: some OptionDeclaration) -> String {
        if !isGiven(option), let variable = option.spec.environment, invocation.isSet(option, in: environment) {
            return variable
        }
        return "'\(option.spec.synopsis)'"
    }

    /// An amount option in the store currency, or `nil` when it was not given.
    ///
    /// - Throws: `UsageError` naming the option when the amount does not fit the currency.
    func money(_ option: Option<String?>) throws -> Money? {
        guard let text = try self[option] else { return nil }
        return try money(text, for: option.spec)
    }

    /// A required amount option in the store currency.
    ///
    /// - Throws: `UsageError` naming the option when the amount does not fit the currency.
    func money(_ option: Option<String>) throws -> Money {
        try money(try self[option], for: option.spec)
    }

    private func money(_ text: String, for option: OptionSpec) throws -> Money {
        let currency = try storeSettings().currency
        do {
            return try Money(parsing: text, currency: currency)
        } catch {
            var reason = error.description
            if case .invalidAmount(_, let why) = error { reason = why }
            throw invalidValue(text, for: option, reason)
        }
    }

    /// The usage error for a value of `option` that is refused for `reason`.
    func invalidValue(_ text: String, for option: OptionSpec, _ reason: String) -> UsageError {
        UsageError(
            "The value '\(DisplayText.clean(text))' is invalid for '\(option.synopsis)': \(reason).",
            command: invocation.command)
    }

    // MARK: - Output

    /// Writes one line on stdout.
    func line(_ text: String = "") throws {
        try stdout.write(text + "\n")
    }

    /// Writes a value as JSON on stdout, on one line, in its one shape: the library's
    /// `Codable` conformances and `CLIJSON`, through `CartJSON.encoder()`.
    func emit(_ value: some Encodable) throws {
        try stdout.write(try json(value))
    }

    /// The value as one line of JSON, ending in a newline, as `emit(_:)` writes it.
    func json(_ value: some Encodable) throws -> String {
        let data: Data
        do {
            data = try encoder.encode(value)
        } catch {
            throw CommandFailure("Cannot write the JSON output: \(error).")
        }
        return String(decoding: data, as: UTF8.self) + "\n"
    }
}
