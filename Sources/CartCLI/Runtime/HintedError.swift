/// An error with a hint the CLI adds to its message, such as "Did you mean 'apple'?": the
/// library's message stays neutral, and the exit status stays the error's own.
struct HintedError: Error {
    /// The error as the library threw it.
    let error: any Error
    /// Text appended to the error's message, starting with a space.
    let hint: String
}
