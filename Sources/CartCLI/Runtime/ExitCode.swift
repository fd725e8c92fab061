/// The tool's exit statuses, from BSD's sysexits where one fits.
enum ExitCode {
    /// Done.
    static let success: Int32 = 0
    /// A rule refused the request, something was not found, a file was bad.
    static let failure: Int32 = 1
    /// The command line is wrong (EX_USAGE).
    static let usage: Int32 = 64
    /// The database stayed locked past the busy timeout; retrying may work (EX_TEMPFAIL).
    static let busy: Int32 = 75
}
