/// Output kept in memory, for running the tool in-process in tests and previews.
public final class CapturedOutput: CommandOutput {
    /// Everything written so far.
    public private(set) var text = ""
    /// What `isTerminal` reports, to test colour decisions.
    public let isTerminal: Bool
    /// What `terminalColumns` reports, to test how tables fit a terminal.
    public let terminalColumns: Int?

    /// Creates an empty buffer.
    public init(isTerminal: Bool = false, terminalColumns: Int? = nil) {
        self.isTerminal = isTerminal
        self.terminalColumns = terminalColumns
    }

    public func write(_ text: String) throws {
        self.text += text
    }

    public func flush() throws {}
}
