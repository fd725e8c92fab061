import Foundation
import Testing

/// What the reliability tests need beyond running `cart`: other clients, other users,
/// checksums and logical dumps, and processes started together.
extension CartSandbox {
    /// A launcher that runs the binary as `nobody` with no supplementary groups, so file
    /// permissions apply even when the tests run as root (root ignores them).
    static let asNobody = ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]

    /// The SHA-256 of a file's bytes, from `sha256sum`.
    func checksum(_ path: String) throws -> String {
        let result = try Self.execute("/usr/bin/sha256sum", [path])
        guard result.status == 0 else { throw ToolFailed(result: result) }
        return String(result.stdout.prefix(64))
    }

    /// The database's logical content as the `sqlite3` shell dumps it: equal dumps mean equal
    /// data, whether or not the pages moved between the file and its write-ahead log.
    func dump(_ path: String? = nil) throws -> String {
        try sqlite3(".dump", on: path)
    }

    /// Runs SQL or a dot-command through the `sqlite3` shell, as another client would.
    @discardableResult
    func sqlite3(_ sql: String, on path: String? = nil) throws -> String {
        let result = try Self.execute("/usr/bin/sqlite3", [path ?? database, sql])
        guard result.status == 0, result.stderr.isEmpty else { throw ToolFailed(result: result) }
        return result.stdout
    }

    /// Runs `body(0)`, …, `body(count - 1)` on threads released at the same moment, and
    /// returns what each returned, in index order; rethrows the first error.
    static func together<Value: Sendable>(
        _ count: Int, _ body: @escaping @Sendable (Int) throws -> Value
    ) throws -> [Value] {
        let start = DispatchSemaphore(value: 0)
        let ready = DispatchSemaphore(value: 0)
        let group = DispatchGroup()
        let results = Locked<[Int: Swift.Result<Value, any Error>]>([:])
        for index in 0..<count {
            group.enter()
            Thread.detachNewThread {
                defer { group.leave() }
                ready.signal()
                start.wait()
                let outcome = Swift.Result { try body(index) }
                results.withLock { $0[index] = outcome }
            }
        }
        for _ in 0..<count { ready.wait() }
        for _ in 0..<count { start.signal() }
        group.wait()
        return try results.withLock { all in
            let missing = ToolFailed(result: Result(status: -1, stdout: "", stderr: "no result"))
            return try (0..<count).map { try (all[$0] ?? .failure(missing)).get() }
        }
    }

    /// A helper program failed.
    struct ToolFailed: Error, CustomStringConvertible {
        let result: Result
        var description: String { "helper failed: \(result)" }
    }
}
