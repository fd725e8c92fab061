import Foundation

/// What one run of a program produced.
package struct ProgramRun: CustomStringConvertible, Sendable {
    /// The exit status (the signal's number when a signal ended it).
    package let status: Int32
    package let stdout: String
    package let stderr: String

    package init(status: Int32, stdout: String, stderr: String) {
        self.status = status
        self.stdout = stdout
        self.stderr = stderr
    }

    package var description: String { "status \(status)\nstdout:\n\(stdout)\nstderr:\n\(stderr)" }

    /// The stderr lines that report an error.
    package var errorLines: [Substring] { stderr.split(separator: "\n").filter { $0.hasPrefix("Error: ") } }

    /// Runs `program` to completion with stdin empty and its output captured in files (pipes
    /// could be held open by children that other tests start at the same time).
    ///
    /// - Throws: the file system's error, or why the program could not be started.
    package static func run(_ program: String, _ arguments: [String], environment: [String: String]? = nil) throws
        -> ProgramRun
    {
        let directory = FileManager.default.temporaryDirectory
        let id = UUID().uuidString
        let outURL = directory.appendingPathComponent("cart-exec-out-\(id)")
        let errURL = directory.appendingPathComponent("cart-exec-err-\(id)")
        try Data().write(to: outURL)
        try Data().write(to: errURL)
        defer {
            try? FileManager.default.removeItem(at: outURL)
            try? FileManager.default.removeItem(at: errURL)
        }
        let out = try FileHandle(forWritingTo: outURL)
        let err = try FileHandle(forWritingTo: errURL)
        defer {
            try? out.close()
            try? err.close()
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
        if let environment { process.environment = environment }
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        return ProgramRun(
            status: process.terminationStatus,
            stdout: String(decoding: try Data(contentsOf: outURL), as: UTF8.self),
            stderr: String(decoding: try Data(contentsOf: errURL), as: UTF8.self))
    }
}
