/// Where the tool writes text: the process's stdout or stderr, or a buffer in tests.
public protocol CommandOutput: AnyObject {
    /// Appends text; it may be buffered until `flush()`.
    ///
    /// - Throws: `OutputClosed` when the reader has gone away (a closed pipe), `OutputFailed`
    ///   when the write failed for another reason (a full disk, say).
    func write(_ text: String) throws

    /// Writes out anything buffered.
    ///
    /// - Throws: `OutputClosed` when the reader has gone away, `OutputFailed` for any other
    ///   failed write.
    func flush() throws

    /// Whether a person is watching: colour is only used on a terminal.
    var isTerminal: Bool { get }

    /// The terminal's width in columns, when it reports one.
    var terminalColumns: Int? { get }

    /// The file descriptor written to, for a command that must notice on its own that the
    /// reader went away (`cart watch`, which may have nothing to write for hours).
    var descriptor: Int32? { get }
}

extension CommandOutput {
    /// No width: tables are written whole.
    public var terminalColumns: Int? { nil }

    /// No descriptor: output captured in memory has no reader to lose.
    public var descriptor: Int32? { nil }
}
