import CartCore

/// Turns any error into one `Error:` line on stderr and an exit status.
enum ErrorReporter {
    /// Reports `error` and returns the exit status for it; `location` names the store in
    /// storage errors when it is known.
    static func report(_ error: any Error, location: String?, to stderr: any CommandOutput) -> Int32 {
        let (message, status) = describe(error, location: location)
        guard let message else { return status }
        // A message may quote stored text another client wrote: escaped, a control character
        // in it reaches the terminal as text.
        var text = "Error: \(DisplayText.escaped(TextLayout.oneLine(message)))\n"
        if let usage = error as? UsageError {
            text += "Usage: \(HelpFormatter.usage(for: usage.command))\n"
            text += "See '\(usage.command.fullName) --help' for more information.\n"
        }
        try? stderr.write(text)
        try? stderr.flush()
        return status
    }

    /// The message (`nil` to stay silent) and exit status for an error: the CLI's own errors
    /// first, then any other by its category (`ExitCode.forCategory`), with the hints only the
    /// CLI can give. When the caller is `retrying` by itself, an unavailable store is not told
    /// to be tried again.
    static func describe(_ error: any Error, location: String?, retrying: Bool = false) -> (String?, Int32) {
        switch error {
        case let error as UsageError:
            return (error.message, ExitCode.usage)
        case let error as CommandFailure:
            return (error.message, ExitCode.failure)
        case let hinted as HintedError:
            let (message, status) = describe(hinted.error, location: location, retrying: retrying)
            return (message.map { $0 + hinted.hint }, status)
        case let error as SavedButNotShown:
            return (
                "The change was saved, but its output could not be written: \(error.reason).", ExitCode.savedButNotShown
            )
        case let error as OutputFailed:
            return ("Cannot write output: \(error.reason).", ExitCode.failure)
        case let failure as StoreFailure:
            let (message, status) = describe(failure.error, location: failure.location, retrying: retrying)
            guard let context = failure.context, let message else { return (message, status) }
            return ("\(context): \(TextLayout.continuing(message))", status)
        case is OutputClosed:
            // Whoever read stdout has what they wanted (`| head`); nothing to tell them.
            return (nil, ExitCode.failure)
        default:
            let category = ErrorCategory(of: error)
            return (
                message(for: error, category: category, location: location, retrying: retrying),
                ExitCode.forCategory(category)
            )
        }
    }

    /// What to say of a library or storage error: the library's own description where it is
    /// written for people, and the store named where the error is about it.
    private static func message(for error: any Error, category: ErrorCategory, location: String?, retrying: Bool)
        -> String
    {
        // `'/data/cart.sqlite3'`, whole, since a location's end (a schema, a file name) may be
        // what tells two stores apart; the sentences below still read when no store was
        // chosen yet.
        let quoted = location.map { "'\(DisplayText.escaped($0))'" }
        let theStore = "The store" + (quoted.map { " " + $0 } ?? "")
        switch error {
        case let error as CartError:
            return error.description + hint(for: error)
        case let error as StoreLocationError:
            return error.description
        case let error as MigrationError:
            return "Cannot use \(quoted ?? "the store"): \(TextLayout.continuing(error.description))" + hint(for: error)
        case let error as StoredDataError:
            return "\(theStore) holds a value this version cannot use: \(error.message). 'cart db check' lists every such value."
        default:
            // A backend's storage error: its description is for developers (SQLite's adds the
            // SQL), so people read the category in words, and the description only where
            // nothing else says what went wrong.
            let reason = (error as? any CategorizedError)?.reason
            switch category {
            case .unavailable:
                if let reason { return "\(theStore) is unavailable: \(reason)" + (retrying ? "." : "; try again.") }
                if retrying { return "\(theStore) stayed locked by another process past the busy timeout." }
                return "\(theStore) stayed locked by another process past the busy timeout; try again, or wait "
                    + "longer with --busy-timeout."
            case .outcomeUnknown:
                let what = reason ?? "the change may or may not have been saved"
                return "\(theStore) went out of reach: \(what). Look before trying again: as it is, a retry could make the change twice."
            case .readOnly:
                if let reason { return "\(theStore) cannot be written by this process: \(reason); this command needs to write to it." }
                return "\(theStore) is read-only; this command needs to write to it."
            case .damagedStore:
                if let reason { return "\(quoted ?? "The store") cannot be read as a cart store: \(DisplayText.escaped(reason))." }
                return "\(quoted ?? "The store") is not a cart store, or it is damaged."
            case .storageFailure:
                if let reason { return "Cannot use \(quoted ?? "the store"): \(reason)." }
                return "Cannot use \(quoted ?? "the store"): \(error)"
            case .invalidInput:
                if let reason { return "Cannot open \(quoted ?? "the store"): \(reason)." }
                return String(describing: error)
            default:
                return String(describing: error)
            }
        }
    }

    private static func hint(for error: CartError) -> String {
        switch error {
        case .productExists: " Change it with 'cart products update'."
        case .inactiveProduct(let sku): " 'cart products update \(DisplayText.escaped(sku)) --active' puts it on sale again."
        default: ""
        }
    }

    private static func hint(for error: MigrationError) -> String {
        switch error {
        case .pendingMigrations: " Run 'cart db migrate'."
        case .danglingReferences: " 'cart db check' lists them: delete or fix those rows, then run 'cart db migrate'."
        default: ""
        }
    }
}
