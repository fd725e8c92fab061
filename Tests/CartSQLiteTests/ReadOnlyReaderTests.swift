import CartCore
import CartTestSupport
import CartSQLite
import Foundation
import Testing

/// Runs the probe as `nobody`, who may read the test files but not write them or their
/// directory (the tests run as root, which ignores permission bits).
let asNobody = ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]

/// Another process's writes, made from a thread of this one: each unit through a connection
/// of its own, open for a moment and closed as a short `cart` command does, with a moment
/// between commands, so the write-ahead log and its `-shm` appear and go again.
final class BusyOwner: @unchecked Sendable {
    // @unchecked: `stopped`, `writes` and `errors` are only touched under `lock`.
    private let lock = NSLock()
    private var stopped = false
    private var writes = 0
    private var errors: [String] = []
    private let finished = DispatchSemaphore(value: 0)

    init(path: String) {
        Thread.detachNewThread { [self] in
            while !lock.withLock({ stopped }) {
                do {
                    let service = CartService(repository: try SQLiteCartRepository(path: path))
                    try service.add("apple", to: "owner")
                    try service.remove("apple", from: "owner")
                    lock.withLock { writes += 2 }
                    usleep(2_000)
                } catch {
                    lock.withLock { errors.append(String(describing: error)) }
                }
                usleep(2_000)
            }
            finished.signal()
        }
    }

    /// Stops writing; returns how many writes committed and the errors.
    func stop() -> (writes: Int, errors: [String]) {
        lock.withLock { stopped = true }
        finished.wait()
        return lock.withLock { (writes, errors) }
    }
}

/// Leaves a hot journal beside `path`, as a crash in the middle of a transaction in
/// rollback-journal mode does: the `sqlite3` shell changes every product name in a
/// transaction with a one-page cache (so changed pages spill into the file itself) and is
/// killed before it commits.
func leaveHotJournal(_ path: String) throws {
    try sqlite(path, "PRAGMA journal_mode = DELETE")
    let shell = Process()
    shell.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
    shell.arguments = [path]
    let input = Pipe()
    let output = Pipe()
    shell.standardInput = input
    shell.standardOutput = output
    try shell.run()
    let script = "PRAGMA cache_size = 1; BEGIN; UPDATE products SET name = name || ' (never committed)'; SELECT 'held';\n"
    try input.fileHandleForWriting.write(contentsOf: Data(script.utf8))
    var seen = Data()
    while !String(decoding: seen, as: UTF8.self).contains("held") {
        let chunk = output.fileHandleForReading.availableData
        if chunk.isEmpty { break }
        seen.append(chunk)
    }
    kill(shell.processIdentifier, SIGKILL)
    shell.waitUntilExit()
    try #require(FileManager.default.fileExists(atPath: path + "-journal"), "no journal was left")
}

@Suite(
    "A reader that cannot write the database", .enabled(if: getuid() == 0, "dropping to nobody needs root"),
    .serialized)
struct ReadOnlyReaderTests {
    /// The reads `cart-torture probe --only reads` runs.
    static let reads = 19

    @Test("reads while the owner writes, over and over: never refused, never a mix of states")
    func readsWhileOwnerWrites() throws {
        let directory = try TemporaryDirectory()
        let path = try probeTemplate(in: directory)
        let owner = BusyOwner(path: path)
        var problems: [String] = []
        for run in 0..<60 {
            let report = try ProbeReport(path: path, readsOnly: true, launcher: asNobody)
            if !report.finished || report.outcomes.count != Self.reads || !report.failures.isEmpty {
                problems.append("run \(run): \(report)")
            }
            if report.detail("cart") != "3" { problems.append("run \(run): alice holds \(report.detail("cart") ?? "?")") }
        }
        let (writes, errors) = owner.stop()
        #expect(writes > 0)
        #expect(errors.isEmpty, "\(errors)")
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
    }

    @Test("a file this process may write in a directory it may not: reads work, writes give the directory as the reason")
    func unwritableDirectory() throws {
        let directory = try TemporaryDirectory()
        let path = try probeTemplate(in: directory)
        try FileManager.default.setAttributes([.posixPermissions: 0o666], ofItemAtPath: path)
        let before = try contents(of: path)
        let report = try ProbeReport(path: path, launcher: asNobody)
        #expect(report.finished, "\(report)")
        let reads = report.outcomes.prefix(Self.reads)
        #expect(reads.allSatisfy { $0.category == nil }, "\(report)")
        #expect(report.detail("status") == "wal")
        let writes = report.failures.filter { $0.category == "readOnly" }
        #expect(writes.count == 17, "\(report)")
        #expect(
            writes.allSatisfy {
                $0.message.hasPrefix("its directory is not writable, so SQLite cannot create or remove the files it needs")
            }, "\(report)")
        #expect(try contents(of: path) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() == ["template.sqlite3"])
    }

    @Test("a file this process cannot write: status reports its WAL journal mode, check finds nothing")
    func statusAndCheck() throws {
        let directory = try TemporaryDirectory()
        let path = try probeTemplate(in: directory)
        let report = try ProbeReport(path: path, readsOnly: true, launcher: asNobody)
        #expect(report.detail("status") == "wal", "\(report)")
        #expect(report.detail("check") == "0", "\(report)")
    }

    @Test("a write-ahead log with commits whose -shm is gone, in a directory the reader cannot write: one line that says so")
    func logWithoutSharedMemory() throws {
        let directory = try TemporaryDirectory()
        let template = try probeTemplate(in: directory)
        let shelf = directory.path("shelf")
        try FileManager.default.createDirectory(atPath: shelf, withIntermediateDirectories: true)
        // A writer that never checkpoints commits a change to the log; the file and the log
        // are copied without the -shm, as a careless backup would.
        try sqlite(template, "PRAGMA wal_autocheckpoint = 0; UPDATE products SET name = 'Apple, fresh' WHERE sku = 'apple'")
        let holder = try HeldLock(template, "PRAGMA wal_autocheckpoint = 0; UPDATE products SET name = 'Apple, fresher' WHERE sku = 'apple'")
        for suffix in ["", "-wal"] {
            try FileManager.default.copyItem(atPath: template + suffix, toPath: shelf + "/cart.sqlite3" + suffix)
        }
        holder.release()
        let report = try ProbeReport(
            path: shelf + "/cart.sqlite3", readsOnly: true, busyTimeoutMilliseconds: 300, launcher: asNobody)
        #expect(report.outcomes.count == 1, "\(report)")
        #expect(
            report.failures.first?.message.hasPrefix(
                "the write-ahead log beside the file holds commits, but its -shm is missing and the directory is not writable")
                == true, "\(report)")
    }

    @Test(
        "a hot journal a crash left: reads give the true reason in one line, not 'damaged', and work once the owner opened the file",
        arguments: [0o644, 0o666])
    func hotJournal(_ mode: Int) throws {
        let directory = try TemporaryDirectory()
        let path = try probeTemplate(in: directory)
        // Enough pages that the uncommitted transaction spills some into the file.
        try CartService(repository: try SQLiteCartRepository(path: path)).importProducts(
            (0..<2_000).map {
                Product(
                    sku: "bulk-\($0)", name: "Bulk product \($0) " + String(repeating: "n", count: 150),
                    price: Money(minorUnits: 1, currency: .usd))
            })
        try leaveHotJournal(path)
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: path)
        let report = try ProbeReport(path: path, readsOnly: true, launcher: asNobody)
        #expect(report.finished, "\(report)")
        #expect(report.outcomes.count == 1 && report.outcomes.first?.name == "open", "\(report)")
        for failure in report.failures {
            #expect(failure.category == "storageFailure", "\(report)")
            #expect(
                failure.message.hasPrefix(
                    "the file has a hot journal from a crash; a process that can write the file and its directory must open it once to recover it (SQLite error 8: "),
                "\(report)")
        }
        // The owner, who can write the directory, opens it once: SQLite rolls the journal back.
        _ = try SQLiteCartRepository(path: path)
        let recovered = try ProbeReport(path: path, readsOnly: true, launcher: asNobody)
        #expect(recovered.failures.isEmpty, "\(recovered)")
        #expect(try rows(path, "SELECT count(*) FROM products WHERE name LIKE '%never committed%'") == ["0"])
    }
}
