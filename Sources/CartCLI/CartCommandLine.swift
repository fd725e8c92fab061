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
    ///     `NO_COLOR`, `TERM`, `COLUMNS`, `PATH`).
    ///   - program: `argv[0]`, from which the commands the tool suggests are written so that
    ///     they run as typed.
    /// - Returns: 0 on success, 1 on failure, 64 on a usage error, 74 when a change was saved
    ///   but its output could not be written, 75 when the store stayed busy.
    public static func run(
        arguments: [String], environment: [String: String], stdout: any CommandOutput, stderr: any CommandOutput,
        program: String = "cart"
    ) -> Int32 {
        let status: Int32
        var location: String?
        var runner: CommandRunner?
        do {
            var note: String?
            switch try CommandLineParser(root: CommandTree.root).parse(arguments) {
            case .help(let command):
                try stdout.write(HelpFormatter.help(for: command))
            case .version(json: false):
                try stdout.write(version + "\n")
            case .version(json: true):
                let data = try CartJSON.encoder().encode(CLIJSON.Version(version: version))
                try stdout.write(String(decoding: data, as: UTF8.self) + "\n")
            case .run(let invocation):
                let globals = try GlobalSettings.resolve(invocation, environment: environment)
                location = Stores.registry.displayLocation(globals.location)
                let commandRunner = CommandRunner(
                    invocation: invocation, globals: globals, environment: environment, stdout: stdout,
                    stderr: stderr, program: program)
                runner = commandRunner
                do {
                    try invocation.command.spec.action?(commandRunner)
                } catch where ErrorCategory(of: error) == .invalidInput {
                    // A malformed value (a SKU, a cart ID, a store location) can only have come
                    // from the command line or the environment: a value read from a file is
                    // reported by its command.
                    let message = ErrorReporter.describe(error, location: location).0 ?? String(describing: error)
                    throw UsageError(message, command: invocation.command)
                } catch {
                    throw commandRunner.withSuggestion(error)
                }
                note = commandRunner.createdStoreNote ?? commandRunner.memoryStoreNote
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
            status = ErrorReporter.report(savedOrNot(error, runner), location: location, to: stderr)
        }
        return status
    }

    /// An output failure after the command committed its change is `SavedButNotShown`, also
    /// when the reader went away: the change stays made, and a retry would make it again.
    private static func savedOrNot(_ error: any Error, _ runner: CommandRunner?) -> any Error {
        guard runner?.hasCommitted == true else { return error }
        switch error {
        case let failed as OutputFailed: return SavedButNotShown(reason: failed.reason)
        case is OutputClosed: return SavedButNotShown(reason: "the reader closed the pipe")
        default: return error
        }
    }

    /// Runs the tool with this process's arguments and environment, and exits with its status.
    public static func main() -> Never {
        // A reader that goes away (`cart orders | head`) must make a write fail with EPIPE,
        // which ends the output silently with status 1, not kill the process with SIGPIPE.
        signal(SIGPIPE, SIG_IGN)
        // A standard descriptor that whoever started the tool closed (`cart show >&-`) would
        // be taken by the next file or socket opened, a PostgreSQL connection's say, and what
        // is written to stdout or stderr would go there. Each is held open on /dev/null, the
        // wrong way round, so that using it still fails as on a closed one (EBADF).
        for descriptor: Int32 in 0...2 where fcntl(descriptor, F_GETFD) == -1 {
            let placeholder = open("/dev/null", descriptor == 0 ? O_WRONLY : O_RDONLY)
            if placeholder > descriptor {
                dup2(placeholder, descriptor)
                close(placeholder)
            }
        }
        let stderr = FileDescriptorOutput.standardError()
        let arguments: [String]
        let environment: [String: String]
        do {
            arguments = try processArguments()
            environment = try processEnvironment()
        } catch {
            // A usage error of the command the words name, read with their bytes repaired.
            let command = CommandLineParser(root: CommandTree.root).command(namedIn: Array(CommandLine.arguments.dropFirst()))
            let message = "\(error.what) is not valid UTF-8 text; file names and values must be UTF-8."
            exit(ErrorReporter.report(UsageError(message, command: command), location: nil, to: stderr))
        }
        let status = run(
            arguments: arguments, environment: environment, stdout: FileDescriptorOutput.standardOutput(),
            stderr: stderr, program: CommandLine.arguments.first ?? "cart")
        exit(status)
    }

    /// An argument or environment variable whose bytes are not UTF-8. Swift's own decoding
    /// repairs such bytes to U+FFFD, so two different file names would read as one name:
    /// the tool refuses them instead.
    struct InvalidText: Error {
        /// `Argument 2`, `CART_DB`.
        let what: String
    }

    /// This process's arguments after its name, each checked to be UTF-8.
    static func processArguments() throws(InvalidText) -> [String] {
        var arguments: [String] = []
        // An empty argv (argc 0, which execve allows) holds no arguments, and no name either.
        for index in stride(from: 1, to: Int(CommandLine.argc), by: 1) {
            guard let pointer = CommandLine.unsafeArgv[index], let argument = String(validatingCString: pointer) else {
                throw InvalidText(what: "Argument \(index)")
            }
            arguments.append(argument)
        }
        return arguments
    }

    /// Every environment variable `run` reads: the options' (global or of a command), those of
    /// the default store location, of colour and of the terminal's width, and the search path
    /// the suggested commands are written for.
    static let environmentVariables =
        (GlobalOptions.all + options(below: CommandTree.root)).compactMap(\.environment)
        + ["XDG_DATA_HOME", "HOME", "NO_COLOR", "TERM", "COLUMNS", "PATH"]

    /// The options of `command` and of every command below it.
    private static func options(below command: CommandSpec) -> [OptionSpec] {
        command.options + command.subcommands.flatMap(options(below:))
    }

    /// This process's values of `environmentVariables`, and nothing else: a `getenv` for each
    /// costs a short command far less than copying the whole environment into a dictionary
    /// (`ProcessInfo.environment`) would.
    ///
    /// - Throws: `InvalidText` naming a variable whose value is not UTF-8.
    static func processEnvironment() throws(InvalidText) -> [String: String] {
        var environment: [String: String] = [:]
        for name in environmentVariables {
            guard let value = getenv(name) else { continue }
            guard let text = String(validatingCString: value) else { throw InvalidText(what: name) }
            environment[name] = text
        }
        return environment
    }
}
