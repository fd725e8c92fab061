/// Where the tool writes text: the process's stdout or stderr, or a buffer in tests.
public protocol CommandOutput: AnyObject {
    /// Appends text; it may be buffered until `flush()`.
    ///
    /// - Throws: `OutputClosed` when the reader has gone away (a closed pipe).
    func write(_ text: String) throws

    /// Writes out anything buffered.
    ///
    /// - Throws: `OutputClosed` when the reader has gone away.
    func flush() throws

    /// Whether a person is watching: colour is only used on a terminal.
    var isTerminal: Bool { get }
}

/// The reader of the output went away, as when `cart orders --csv | head` has read enough.
public struct OutputClosed: Error {}
