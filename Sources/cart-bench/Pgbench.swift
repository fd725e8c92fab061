import CartPostgres
import Foundation

/// pgbench, PostgreSQL's own load generator, running the statements of one add-to-cart of a
/// line that exists, from a script file that `addToCartScript(in:)` writes from
/// `PostgresBenchmarkSQL`.
enum Pgbench {
    /// The script: BEGIN, the line's context (its values kept by `\gset`), the line's new
    /// quantity, the cart's new version, and COMMIT, each in a round trip of its own. The
    /// repository sends BEGIN with the line's context; pgbench cannot, as it refuses `\gset`
    /// in a pipeline and a statement of two commands when they are prepared.
    /// Client `c` adds to carts `c*1000` to `c*1000+99`, SKUs `100` to `109`.
    static func addToCartScript(in directory: String) throws -> String {
        func statement(_ sql: String, _ variables: [String], end: String = ";") -> String {
            var text = sql.split(whereSeparator: \.isNewline).joined(separator: " ")
            // From the highest, so that `$1` does not take the start of `$10`.
            for (index, variable) in variables.enumerated().reversed() { text = text.replacing("$\(index + 1)", with: ":" + variable) }
            return text + end
        }
        let script = [
            "\\set cart :client_id * 1000 + random(0, 99)",
            "\\set sku 100 + random(0, 9)",
            statement(PostgresBenchmarkSQL.beginWrite, []),
            statement(PostgresBenchmarkSQL.lineContext, ["cart", "sku"], end: " \\gset"),
            "\\set quantity :quantity + 1",
            statement(PostgresBenchmarkSQL.updateLine, ["cart", "sku", "quantity"]),
            "\\set next_version :version + 1",
            statement(PostgresBenchmarkSQL.updateCart, ["cart", "next_version", "now", "line_count", "next_position", "version"]),
            "COMMIT;",
        ].joined(separator: "\n") + "\n"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let path = directory + "/add-to-cart.pgbench"
        try script.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// Runs `script` with `clients` clients for `seconds` and returns its transactions per
    /// second (without connection time).
    static func run(script: String, url: String, clients: Int, seconds: Int) throws -> Double {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try executable())
        process.arguments = [
            "-n", "-M", "prepared", "-c", String(clients), "-j", String(clients), "-T", String(seconds),
            "-D", "now=\(Measurement.wallClockMilliseconds())", "-f", script, url,
        ]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self)
        guard process.terminationStatus == 0,
            let line = text.split(separator: "\n").first(where: { $0.hasPrefix("tps = ") }),
            let tps = Double(line.dropFirst(6).prefix { $0 != " " })
        else { throw BenchError.child("pgbench failed: " + text.split(separator: "\n").suffix(3).joined(separator: " | ")) }
        return tps
    }

    /// `$PGBENCH`, or pgbench among the server binaries (`pg_config --bindir`, which Debian
    /// keeps off PATH).
    static func executable() throws -> String {
        if let path = ProcessInfo.processInfo.environment["PGBENCH"] { return path }
        let candidates = ((try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib/postgresql")) ?? [])
            .sorted { $0.compare($1, options: .numeric) == .orderedDescending }
            .map { "/usr/lib/postgresql/\($0)/bin/pgbench" } + ["/usr/bin/pgbench"]
        guard let found = candidates.first(where: FileManager.default.isExecutableFile(atPath:)) else {
            throw BenchError.child("pgbench not found: install Debian's postgresql package, or set PGBENCH")
        }
        return found
    }
}
