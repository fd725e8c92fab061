import CartTestSupport
import Foundation
import Testing

@testable import CartCLI

/// A private directory, a database path in it, and a way to run the built `cart` binary
/// against them as a separate process. Each test makes its own, so tests run in parallel.
final class CartSandbox: @unchecked Sendable {
    /// What one run of the binary produced.
    struct Result: CustomStringConvertible {
        let status: Int32
        let stdout: String
        let stderr: String

        var description: String { "status \(status)\nstdout:\n\(stdout)\nstderr:\n\(stderr)" }

        /// The stderr lines that report an error.
        var errorLines: [Substring] { stderr.split(separator: "\n").filter { $0.hasPrefix("Error: ") } }
    }

    let directory: URL
    /// The database every `run` uses unless the arguments name another.
    let database: String
    /// Variables every `run` passes besides `HOME` and `CART_DB`.
    var environment: [String: String] = [:]

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("cart-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        database = directory.appendingPathComponent("data/cart.sqlite3").path
    }

    deinit {
        try? FileManager.default.removeItem(at: directory)
    }

    /// A path inside the sandbox.
    func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    /// Writes a file in the sandbox and returns its path.
    @discardableResult
    func write(_ name: String, _ bytes: [UInt8]) throws -> String {
        let target = path(name)
        try Data(bytes).write(to: URL(fileURLWithPath: target))
        return target
    }

    /// Runs `cart` with `arguments` against the sandbox database (through `CART_DB`, so
    /// `--db` on the command line still wins), with `HOME` inside the sandbox.
    @discardableResult
    func run(_ arguments: String..., environment extra: [String: String] = [:]) throws -> Result {
        try run(arguments, environment: extra)
    }

    /// Runs `cart` with `arguments`; `extra` adds or overrides variables (an empty value
    /// removes one); `launcher` runs the binary through another program (`setpriv …`).
    @discardableResult
    func run(_ arguments: [String], environment extra: [String: String] = [:], launcher: [String] = []) throws
        -> Result
    {
        let command = launcher + [try Self.binary()] + arguments
        return try launch(command[0], Array(command.dropFirst()), environment: extra)
    }

    /// Runs a `/bin/sh` script in the sandbox's environment, with `$0` the `cart` binary, for
    /// what needs a shell: a redirection, or reading back a command the tool printed.
    func shell(_ script: String) throws -> Result {
        try launch("/bin/sh", ["-c", script, try Self.binary()], environment: [:])
    }

    private func launch(_ executable: String, _ arguments: [String], environment extra: [String: String]) throws
        -> Result
    {
        var variables = ["HOME": path("home"), "CART_DB": database, "PATH": "/usr/bin:/bin"]
        variables.merge(environment) { $1 }
        variables.merge(extra) { $1 }
        variables = variables.filter { !$0.value.isEmpty }
        return try Self.execute(executable, arguments, environment: variables)
    }

    /// Runs a program to completion with output captured in files (pipes could be held open by
    /// children that other tests start at the same time).
    static func execute(_ program: String, _ arguments: [String], environment: [String: String]? = nil) throws
        -> Result
    {
        let run = try ProgramRun.run(program, arguments, environment: environment)
        return Result(status: run.status, stdout: run.stdout, stderr: run.stderr)
    }

    /// Runs an SQL statement with the `sqlite3` shell, as another program might (to age
    /// carts, say), on the sandbox database unless `path` names another file.
    func sql(_ statement: String, on path: String? = nil, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let shell = Process()
        shell.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        shell.arguments = [path ?? database, statement]
        try shell.run()
        shell.waitUntilExit()
        #expect(shell.terminationStatus == 0, "\(statement)", sourceLocation: sourceLocation)
    }

    /// Runs `cart` and expects success.
    @discardableResult
    func ok(_ arguments: String..., sourceLocation: SourceLocation = #_sourceLocation) throws -> Result {
        let result = try run(arguments)
        #expect(result.status == 0, "\(arguments) \(result)", sourceLocation: sourceLocation)
        return result
    }

    /// The built `cart` binary: beside the test bundle in the build directory, else under the
    /// package's `.build/debug`.
    static func binary() throws -> String {
        let candidates = [
            URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
                .appendingPathComponent("cart").path,
            Bundle.main.bundleURL.appendingPathComponent("cart").path,
            packageRoot().appendingPathComponent(".build/debug/cart").path,
        ]
        guard let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            throw BinaryNotBuilt(searched: candidates)
        }
        return found
    }

    /// How the tool writes itself in the commands it suggests (`More: …`, demo's next steps)
    /// when `run` starts it: by its path, since `cart` is not on the sandbox's PATH.
    static func typedName() throws -> String {
        ShellQuoting.quoted(try binary())
    }

    /// The package's root folder, from this file's place in it.
    static func packageRoot() -> URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
    }

    struct BinaryNotBuilt: Error, CustomStringConvertible {
        let searched: [String]
        var description: String { "The cart binary is not built; run 'swift build'. Looked in: \(searched)" }
    }
}
