import Foundation

// cart-bench: the workloads of docs/BENCHMARKS.md, each measured through the project and through the raw
// SQLite C baseline in the same run, alternating, several rounds; medians and ratios. With a PostgreSQL server,
// the pg- workloads against raw libpq C and pgbench as well.

let arguments = Array(CommandLine.arguments.dropFirst())
do {
    if arguments.first == "--export-child", arguments.count == 3 {
        try ExportWorkload.runChild(side: arguments[1], path: arguments[2])
        exit(0)
    }
    guard let options = try BenchOptions.parse(arguments) else { exit(0) }
    let fixtures = BenchFixtures(options: options)
    let report = BenchReport(options: options)
    if !options.json {
        FileHandle.standardError.write(
            Data("cart-bench \(options.quick ? "--quick" : "(full)"), \(options.rounds) rounds\n".utf8))
    }
    let cart = CartWorkloads(options: options, fixtures: fixtures, report: report)
    if options.runs("add") { try cart.addToCart() }
    if options.runs("import") { try cart.importProducts() }
    if options.runs("memory") { try cart.inMemoryAddToCart() }
    if options.runs("checkout") { try cart.checkout() }
    if options.runs("history") { try HistoryWorkloads(options: options, fixtures: fixtures, report: report).run() }
    if let url = options.postgresURL, options.postgresWorkloads.contains(where: options.runs) {
        let server = try PostgresBench(url: url)
        if !options.json { FileHandle.standardError.write(Data("PostgreSQL: \(try server.settings())\n".utf8)) }
        let postgres = PostgresWorkloads(options: options, fixtures: fixtures, report: report, server: server)
        if options.runs("pg-add") { try postgres.addToCart() }
        if options.runs("pg-checkout") { try postgres.checkout() }
        if options.runs("pg-clients") { try postgres.clients() }
        if options.runs("pg-history") { try PostgresHistoryWorkload(options: options, report: report, server: server).run() }
    }
    try report.printResults()
    try? FileManager.default.removeItem(atPath: options.workDirectory)
} catch let error as BenchError {
    FileHandle.standardError.write(Data("Error: \(error)\n".utf8))
    exit(error.isUsage ? 64 : 1)
} catch {
    FileHandle.standardError.write(Data("Error: \(error)\n".utf8))
    exit(1)
}

extension BenchError {
    var isUsage: Bool {
        if case .usage = self { return true }
        return false
    }
}
