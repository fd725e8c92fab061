@testable import CartCLI

/// Runs the tool in this process with captured output and, unless told otherwise, the
/// in-memory store, so parser and output tests touch no file.
struct InProcess {
    let status: Int32
    let stdout: String
    let stderr: String

    init(
        _ arguments: [String], environment: [String: String] = ["CART_DB": "memory:"], terminal: Bool = false,
        terminalColumns: Int? = nil
    ) {
        let out = CapturedOutput(isTerminal: terminal, terminalColumns: terminalColumns)
        let err = CapturedOutput()
        status = CartCommandLine.run(arguments: arguments, environment: environment, stdout: out, stderr: err)
        stdout = out.text
        stderr = err.text
    }

    /// The stderr lines that report an error.
    var errorLines: [Substring] { stderr.split(separator: "\n").filter { $0.hasPrefix("Error: ") } }

    /// The first error line without its prefix.
    var error: String { errorLines.first.map { String($0.dropFirst("Error: ".count)) } ?? "" }
}

/// Parses argv against the real command tree.
func parse(_ arguments: [String]) -> Result<ParseOutcome, UsageError> {
    Result { () throws(UsageError) -> ParseOutcome in try CommandLineParser(root: CommandTree.root).parse(arguments) }
}

/// The invocation argv parses to, or `nil` for help, version or an error.
func invocation(_ arguments: [String]) -> Invocation? {
    guard case .success(.run(let invocation)) = parse(arguments) else { return nil }
    return invocation
}

/// The usage error argv gives, or `nil` if it parses.
func usageError(_ arguments: [String]) -> String? {
    guard case .failure(let error) = parse(arguments) else { return nil }
    return error.message
}
