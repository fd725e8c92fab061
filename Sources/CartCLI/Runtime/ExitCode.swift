import CartCore

/// The tool's exit statuses, from BSD's sysexits where one fits.
enum ExitCode {
    /// Done.
    static let success: Int32 = 0
    /// A rule refused the request, something was not found, a file was bad.
    static let failure: Int32 = 1
    /// The command line is wrong (EX_USAGE).
    static let usage: Int32 = 64
    /// The change was saved, but the output saying so could not be written, or it may have
    /// been saved (a store lost while committing it) (EX_IOERR): do not retry it blindly.
    static let savedButNotShown: Int32 = 74
    /// The store stayed busy past the timeout, or its server could not be reached; retrying
    /// may work (EX_TEMPFAIL).
    static let unavailable: Int32 = 75

    /// The one table from error categories to exit statuses.
    static func forCategory(_ category: ErrorCategory) -> Int32 {
        switch category {
        case .invalidInput: usage
        case .unavailable: unavailable
        case .outcomeUnknown: savedButNotShown
        case .notFound, .conflict, .staleVersion, .refused, .readOnly, .incompatibleStore, .damagedStore,
            .storageFailure:
            failure
        }
    }
}
