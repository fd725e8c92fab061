/// Output kept in memory, for running the tool in-process in tests and previews.
public final class CapturedOutput: CommandOutput {
    /// Everything written so far.
    public private(set) var text = ""
    /// What `isTerminal` reports, to test colour decisions.
    public let isTerminal: Bool

    /// Creates an empty buffer.
    public init(isTerminal: Bool = false) {
        self.isTerminal = isTerminal
    }

    public func write(_ text: String) throws {
        self.text += text
    }

    public func flush() throws {}
}
