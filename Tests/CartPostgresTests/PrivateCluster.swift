import Foundation
import Testing

/// A PostgreSQL cluster of one test's own, in a temporary directory, for tests that stop and
/// start the server; `scripts/postgres-cluster.sh` runs it, and it is removed when released.
final class PrivateCluster {
    /// The cluster's directory.
    let directory: String
    /// Its `CART_TEST_POSTGRES_URL`.
    let url: String

    /// Creates and starts the cluster (fsync off).
    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("cart-pg-\(UUID().uuidString.prefix(8))").path
        let environment = try Self.run("start", directory, "--fsync", "off")
        let line = try #require(environment.split(separator: "\n").first { $0.hasPrefix("export CART_TEST_POSTGRES_URL=") })
        url = String(line.split(separator: "=", maxSplits: 1)[1])
    }

    deinit { _ = try? Self.run("stop", directory, "--remove") }

    /// Stops the server (fast shutdown: sessions are ended).
    func stop() throws { _ = try Self.run("stop", directory) }

    /// Starts the server again.
    func start() throws { _ = try Self.run("start", directory, "--fsync", "off") }

    private static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../scripts/postgres-cluster.sh").standardized.path

    /// Runs the script and returns its standard output.
    private static func run(_ arguments: String...) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = [script] + arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0, "postgres-cluster.sh \(arguments.joined(separator: " ")) failed")
        return String(decoding: data, as: UTF8.self)
    }
}
