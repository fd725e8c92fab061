import CartCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The `cart` tool, callable in-process: parse argv, run the command, print, return the exit
/// status. `Sources/cart/main.swift` only forwards the process's arguments here.
public enum CartCommandLine {
    /// What `cart --version` prints.
    public static let version = "0.1.0"

    /// Runs the tool once.
    ///
    /// - Parameters:
    ///   - arguments: argv without the tool's own name.
    ///   - environment: the variables the tool reads (`CART_DB`, `CART_STORE`, `CART_ID`,
    ///     `CART_BUSY_TIMEOUT`, `CART_LISTEN`, `CART_ADMIN_TOKEN`, `XDG_DATA_HOME`, `HOME`,
    ///     `NO_COLOR`, `TERM`).
    /// - Returns: 0 on success, 1 on failure, 64 on a usage error, 75 when the store stayed
    ///   busy.
    public static func run(
        arguments: [String], environment: [String: String], stdout: any CommandOutput, stderr: any CommandOutput
    ) -> Int32 {
        let status: Int32
        var location: String?
        do {
            var note: String?
            switch try CommandLineParser(root: CommandTree.root).parse(arguments) {
            case .help(let command):
                try stdout.write(HelpFormatter.help(for: command))
            case .version:
                try stdout.write(version + "\n")
            case .run(let invocation):
                let globals = try GlobalSettings.resolve(invocation, environment: environment)
                location = globals.location
                let runner = CommandRunner(
                    invocation: invocation, globals: globals, environment: environment, stdout: stdout)
                do {
                    try invocation.command.spec.action?(runner)
                } catch where ErrorCategory(of: error) == .invalidInput {
                    // A malformed value (a SKU, a cart ID, a store location) can only have come
                    // from the command line or the environment: a value read from a file is
                    // reported by its command.
                    throw UsageError(String(describing: error), command: invocation.command)
                }
                note = globals.memoryStoreNote
            }
            try stdout.flush()
            // Only after success, so that a failure stays the one `Error:` line on stderr.
            if let note {
                try? stderr.write(note + "\n")
                try? stderr.flush()
            }
            status = ExitCode.success
        } catch {
            try? stdout.flush()
            status = ErrorReporter.report(error, location: location, to: stderr)
        }
        return status
    }

    /// Runs the tool with this process's arguments and environment, and exits with its status.
    public static func main() -> Never {
        // A reader that goes away (`cart orders | head`) must make a write fail with EPIPE,
        // which ends the output silently with status 1, not kill the process with SIGPIPE.
        signal(SIGPIPE, SIG_IGN)
        let status = run(
            arguments: Array(CommandLine.arguments.dropFirst()), environment: processEnvironment(),
            stdout: FileDescriptorOutput.standardOutput(), stderr: FileDescriptorOutput.standardError())
        exit(status)
    }

    /// Every environment variable `run` reads: the options' (global or of a command) and
    /// those of the default store location and of colour.
    static let environmentVariables =
        (GlobalOptions.all + options(below: CommandTree.root)).compactMap(\.environment)
        + ["XDG_DATA_HOME", "HOME", "NO_COLOR", "TERM"]

    /// The options of `command` and of every command below it.
    private static func options(below command: CommandSpec) -> [OptionSpec] {
        command.options + command.subcommands.flatMap(options(below:))
    }

    /// This process's values of `environmentVariables`, and nothing else: a `getenv` for each
    /// costs a short command far less than copying the whole environment into a dictionary
    /// (`ProcessInfo.environment`) would.
    static func processEnvironment() -> [String: String] {
        var environment: [String: String] = [:]
        for name in environmentVariables {
            if let value = getenv(name) { environment[name] = String(cString: value) }
        }
        return environment
    }
}
