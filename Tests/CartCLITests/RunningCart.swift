import Foundation
import Synchronization

/// The built `cart` binary running in the background against a sandbox, its stdout read line
/// by line as it arrives, for commands that do not end by themselves (`cart watch`).
final class RunningCart: Sendable {
    private let process: Process
    private let lines = Mutex<[String]>([])
    private let lineArrived = DispatchSemaphore(value: 0)
    private let exited = DispatchSemaphore(value: 0)

    /// Starts `cart` with `arguments` and the sandbox's database, `HOME` and variables;
    /// `extra` adds or overrides variables for this process only; stderr goes to the file
    /// `errorLog` if given, else nowhere; `launcher`, when given, runs the binary
    /// (`CartSandbox.asNobody`).
    init(
        _ arguments: [String], in sandbox: CartSandbox, environment extra: [String: String] = [:],
        errorLog: String? = nil, launcher: [String] = []
    ) throws {
        let process = Process()
        let command = launcher + [try CartSandbox.binary()] + arguments
        process.executableURL = URL(fileURLWithPath: command[0])
        process.arguments = Array(command.dropFirst())
        var variables = ["HOME": sandbox.path("home"), "CART_DB": sandbox.database, "PATH": "/usr/bin:/bin"]
        variables.merge(sandbox.environment) { $1 }
        variables.merge(extra) { $1 }
        process.environment = variables
        let output = Pipe()
        process.standardOutput = output
        if let errorLog {
            _ = FileManager.default.createFile(atPath: errorLog, contents: nil)
            process.standardError = FileHandle(forWritingAtPath: errorLog)
        } else {
            process.standardError = FileHandle.nullDevice
        }
        process.standardInput = FileHandle.nullDevice
        self.process = process
        process.terminationHandler = { [exited] _ in exited.signal() }
        try process.run()
        let reader = output.fileHandleForReading
        Thread.detachNewThread { [self] in readLines(from: reader) }
    }

    /// Splits what the process writes into lines until it closes its stdout.
    private func readLines(from reader: FileHandle) {
        var pending = Data()
        while true {
            let chunk = reader.availableData
            if chunk.isEmpty { return }
            pending.append(chunk)
            while let end = pending.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: pending[pending.startIndex..<end], as: UTF8.self)
                pending.removeSubrange(pending.startIndex...end)
                lines.withLock { $0.append(line) }
                lineArrived.signal()
            }
        }
    }

    /// The next line of stdout, or `nil` if none comes within `seconds`.
    func nextLine(within seconds: Double = 30) -> String? {
        guard lineArrived.wait(timeout: .now() + seconds) == .success else { return nil }
        return lines.withLock { $0.removeFirst() }
    }

    /// The next `count` lines, or fewer if the rest do not come within `seconds` each.
    func nextLines(_ count: Int, within seconds: Double = 30) -> [String] {
        var taken: [String] = []
        while taken.count < count, let line = nextLine(within: seconds) { taken.append(line) }
        return taken
    }

    /// Sends a signal, such as SIGINT for Ctrl-C.
    func send(_ signal: Int32) {
        kill(process.processIdentifier, signal)
    }

    /// The exit status, or `nil` if the process is still running after `seconds`. Ask once.
    func exitStatus(within seconds: Double = 30) -> Int32? {
        guard exited.wait(timeout: .now() + seconds) == .success else { return nil }
        process.waitUntilExit()
        return process.terminationStatus
    }

    /// Kills the process if it still runs, so that no test leaves it behind.
    func stop() {
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }
}
