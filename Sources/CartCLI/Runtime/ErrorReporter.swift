import CartCore
import CartSQLite

/// Turns any error into one `Error:` line on stderr and an exit status.
enum ErrorReporter {
    /// Reports `error` and returns the exit status for it; `databasePath` names the file in
    /// storage errors when it is known.
    static func report(_ error: any Error, databasePath: String?, to stderr: any CommandOutput) -> Int32 {
        let (message, status) = describe(error, databasePath: databasePath)
        guard let message else { return status }
        var text = "Error: \(TextLayout.oneLine(message))\n"
        if let usage = error as? UsageError {
            text += "Usage: \(HelpFormatter.usage(for: usage.command))\n"
            text += "See '\(usage.command.fullName) --help' for more information.\n"
        }
        try? stderr.write(text)
        try? stderr.flush()
        return status
    }

    /// The message (`nil` to stay silent) and exit status for an error.
    static func describe(_ error: any Error, databasePath: String?) -> (String?, Int32) {
        let file = databasePath.map { "'\(DisplayText.clean($0))'" } ?? "the database"
        switch error {
        case let error as UsageError:
            return (error.message, ExitCode.usage)
        case let error as CartError:
            return (error.description, ExitCode.failure)
        case let error as CommandFailure:
            return (error.message, ExitCode.failure)
        case let error as MigrationError:
            return ("Cannot use \(file): \(TextLayout.continuing(error.description))", ExitCode.failure)
        case let error as DatabaseError where error.isBusy:
            return (
                "The database \(file) stayed locked by another process past the busy timeout; try again, "
                    + "or wait longer with --busy-timeout.", ExitCode.busy
            )
        case let error as DatabaseError where error.isReadOnly:
            return ("The database \(file) is read-only; this command needs to write to it.", ExitCode.failure)
        case let error as DatabaseError where error.isNotADatabase:
            return ("\(file) is not a cart database (not a SQLite file, or damaged).", ExitCode.failure)
        case let error as DatabaseError where error.isCannotOpen:
            return ("Cannot open the database \(file): \(error.message).", ExitCode.failure)
        case let error as OutputFailed:
            return ("Cannot write output: \(error.reason).", ExitCode.failure)
        case is OutputClosed:
            // Whoever read stdout has what they wanted (`| head`); nothing to tell them.
            return (nil, ExitCode.failure)
        default:
            return (String(describing: error), ExitCode.failure)
        }
    }
}
