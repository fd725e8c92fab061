/// A command could not do its job for a reason the CLI itself found (a missing file, a bad
/// import file, a path that is a directory): exit 1 with this one line.
struct CommandFailure: Error {
    /// One line, without the `Error: ` prefix.
    let message: String

    init(_ message: String) {
        self.message = message
    }
}
