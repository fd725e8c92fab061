import CartTestSupport
import Foundation
import Glibc
import Testing

/// The built `cart` binary, run as a separate process against one store, as users run it:
/// `CART_DB` names the store (so `--db` on the command line still wins), `HOME` is a
/// directory of its own, and no `PG*` variable of the test's environment leaks in.
struct CartCommand: Sendable {
    /// The store every run uses unless the arguments name another.
    let location: String
    /// The directory `HOME` points to, where a SQLite default would go.
    let home: String

    init(location: String, home: TemporaryDirectory) {
        self.location = location
        self.home = home.path
    }

    /// Runs `cart` with `arguments`.
    @discardableResult
    func run(_ arguments: String...) throws -> ProgramRun {
        try run(arguments)
    }

    /// Runs `cart` with `arguments`.
    @discardableResult
    func run(_ arguments: [String]) throws -> ProgramRun {
        try ProgramRun.run(try Self.binary(), arguments, environment: environment)
    }

    /// The whole environment of a run.
    private var environment: [String: String] { ["HOME": home, "CART_DB": location, "PATH": "/usr/bin:/bin"] }

    /// Runs a `/bin/sh` script in this store's environment, with `$0` the `cart` binary, for
    /// what needs a shell: a redirection, a closed descriptor.
    func shell(_ script: String) throws -> ProgramRun {
        try ProgramRun.run("/bin/sh", ["-c", script, try Self.binary()], environment: environment)
    }

    /// Runs `cart` and expects success.
    @discardableResult
    func ok(_ arguments: String..., sourceLocation: SourceLocation = #_sourceLocation) throws -> ProgramRun {
        let result = try run(arguments)
        #expect(result.status == 0, "\(arguments) \(result)", sourceLocation: sourceLocation)
        return result
    }

    /// The `--json` output of a successful run, decoded.
    func json(_ arguments: String..., sourceLocation: SourceLocation = #_sourceLocation) throws -> [String: Any] {
        let result = try run(arguments + ["--json"])
        #expect(result.status == 0, "\(arguments) \(result)", sourceLocation: sourceLocation)
        return try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any] ?? [:]
    }

    /// Starts `cart` with `arguments`, sends it SIGKILL after `milliseconds`, and returns whether it
    /// was still running then (`false`: it had ended by itself).
    func kill(afterMilliseconds milliseconds: Int, _ arguments: String...) throws -> Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try Self.binary())
        process.arguments = arguments
        process.environment = environment
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        pause(milliseconds: milliseconds)
        let running = process.isRunning
        if running { Glibc.kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        return running && process.terminationReason == .uncaughtSignal
    }

    /// Starts `cart` with `arguments` in the background, its stdout and stderr written to the
    /// files at the paths given, for a command that does not end by itself (`cart watch`).
    func start(_ arguments: String..., stdout: String, stderr: String) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try Self.binary())
        process.arguments = arguments
        process.environment = environment
        process.standardInput = FileHandle.nullDevice
        for path in [stdout, stderr] { _ = FileManager.default.createFile(atPath: path, contents: nil) }
        process.standardOutput = FileHandle(forWritingAtPath: stdout)
        process.standardError = FileHandle(forWritingAtPath: stderr)
        try process.run()
        return process
    }

    /// The built `cart` binary, beside the test bundle in the build directory.
    static func binary() throws -> String {
        let beside = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
            .appendingPathComponent("cart").path
        guard FileManager.default.isExecutableFile(atPath: beside) else { throw NotBuilt(path: beside) }
        return beside
    }

    struct NotBuilt: Error, CustomStringConvertible {
        let path: String
        var description: String { "The cart binary is not built at \(path); run 'swift build'." }
    }
}
