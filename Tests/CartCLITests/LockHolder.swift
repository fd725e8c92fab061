import Foundation

/// Another client, the `sqlite3` shell, holding the database open until told to let go: by
/// default inside `BEGIN IMMEDIATE`, so holding the write lock.
final class LockHolder: @unchecked Sendable {
    // @unchecked: `released` is only read and written under `lock`; the rest is set in init.
    private let shell = Process()
    private let input = Pipe()
    private let output = Pipe()
    private let lock = NSLock()
    private var released = false

    /// Starts the shell on `path`, runs `script`, and returns once the shell has run it.
    init(path: String, script: String = "BEGIN IMMEDIATE;") throws {
        shell.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        shell.arguments = [path]
        shell.standardInput = input
        shell.standardOutput = output
        shell.standardError = FileHandle.nullDevice
        try shell.run()
        try send(script + "\nSELECT 'locked';\n")
        var seen = Data()
        while !String(decoding: seen, as: UTF8.self).contains("locked") {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { throw NotLocked() }
            seen.append(chunk)
        }
    }

    deinit {
        release()
    }

    /// Rolls back what the script left open and ends the shell.
    func release() {
        let first = lock.withLock {
            defer { released = true }
            return !released
        }
        guard first else { return }
        try? send("ROLLBACK;\n.quit\n")
        try? input.fileHandleForWriting.close()
        shell.waitUntilExit()
    }

    private func send(_ text: String) throws {
        try input.fileHandleForWriting.write(contentsOf: Data(text.utf8))
    }

    /// The shell ended before it reported holding the lock.
    struct NotLocked: Error {}
}
