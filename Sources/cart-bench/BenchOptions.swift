import Foundation

/// What one `cart-bench` run measures and how big: `--quick` for CI (seconds), the full mode
/// for the real measurement.
struct BenchOptions {
    /// Small sizes and few rounds.
    var quick = false
    /// Print the results as JSON instead of a table.
    var json = false
    /// How many times each side of a workload runs, alternating project and raw.
    var rounds = 5
    /// Add-to-cart calls and the carts and SKUs they spread over (workloads 1 and 3).
    var addCalls = 100_000
    var carts = 1_000
    var skus = 500
    /// Rows of the product import (workload 2).
    var importRows = 100_000
    /// Orders checked out per round (workload 4), 5 lines each.
    var checkouts = 10_000
    /// Order-history sizes (workload 5); the largest also serves stats and export.
    var historySizes = [10_000, 100_000, 1_000_000]
    /// Queries per round and size for the history latencies.
    var historyQueries = 300
    /// Only these workloads (`add`, `import`, `memory`, `checkout`, `history`, and with a
    /// PostgreSQL server `pg-add`, `pg-checkout`, `pg-clients`, `pg-history`); all when empty.
    var only: Set<String> = []
    /// The PostgreSQL server of the `pg-` workloads (`--postgres`, or `CART_BENCH_POSTGRES_URL`);
    /// without one they do not run.
    var postgresURL: String?
    /// Add-to-cart calls and checkouts per round on PostgreSQL (workloads P1 and P2).
    var postgresAddCalls = 20_000
    var postgresCheckouts = 2_000
    /// How long each side of the 8-client workload (P3) runs per round.
    var postgresClientSeconds = 10
    /// Order-history sizes on PostgreSQL (workload P4).
    var postgresHistorySizes = [10_000, 100_000, 1_000_000]
    /// Where fresh databases are written; history datasets are cached under `cacheDirectory`.
    var workDirectory = ".build/bench-work"
    var cacheDirectory = ".build/bench-cache"

    static let usage = """
        OVERVIEW: Measures the cart library side by side with raw SQLite and libpq C baselines.

        USAGE: cart-bench [--quick] [--json] [--rounds <n>] [--only <workload>]... [--postgres <url>]

        OPTIONS:
          --quick           Small sizes and few rounds (seconds; used by CI).
          --json            Print results as JSON.
          --rounds <n>      Rounds per workload, alternating project and raw.
          --only <name>     Run only this workload (add, import, memory, checkout, history,
                            pg-add, pg-checkout, pg-clients, pg-history); repeatable, for
                            profiling one of them.
          --postgres <url>  Also measure PostgreSQL against raw libpq C and pgbench on this
                            server (a libpq URI; default: $CART_BENCH_POSTGRES_URL). Each
                            workload works in schemas of its own, which it drops afterwards;
                            history datasets stay, named cart_bench_history_*.
          -h, --help        Show help information.
        """

    static let workloads = ["add", "import", "memory", "checkout", "history"]
    static let postgresWorkloads = ["pg-add", "pg-checkout", "pg-clients", "pg-history"]
    var postgresWorkloads: [String] { Self.postgresWorkloads }

    /// Whether `workload` is to run.
    func runs(_ workload: String) -> Bool {
        if workload.hasPrefix("pg-"), postgresURL == nil { return false }
        return only.isEmpty || only.contains(workload)
    }

    /// Parses the command line; `nil` after printing help.
    static func parse(_ arguments: [String]) throws -> BenchOptions? {
        var options = BenchOptions()
        var rounds: Int?
        var index = 0
        let workloads = Self.workloads + Self.postgresWorkloads
        while index < arguments.count {
            switch arguments[index] {
            case "--quick": options.quick = true
            case "--json": options.json = true
            case "--rounds":
                index += 1
                guard index < arguments.count, let value = Int(arguments[index]), value > 0 else {
                    throw BenchError.usage("--rounds needs a positive number")
                }
                rounds = value
            case "--only":
                index += 1
                guard index < arguments.count, workloads.contains(arguments[index]) else {
                    throw BenchError.usage("--only needs one of: " + workloads.joined(separator: ", "))
                }
                options.only.insert(arguments[index])
            case "--postgres":
                index += 1
                guard index < arguments.count, !arguments[index].isEmpty else {
                    throw BenchError.usage("--postgres needs a PostgreSQL location (postgresql://…)")
                }
                options.postgresURL = arguments[index]
            case "-h", "--help":
                print(usage)
                return nil
            default: throw BenchError.usage("Unknown option '\(arguments[index])'")
            }
            index += 1
        }
        if options.quick {
            options.rounds = 3
            options.addCalls = 5_000
            options.carts = 100
            options.importRows = 10_000
            options.checkouts = 500
            options.historySizes = [1_000, 10_000]
            options.historyQueries = 100
            options.postgresAddCalls = 2_000
            options.postgresCheckouts = 200
            options.postgresClientSeconds = 3
            options.postgresHistorySizes = [1_000, 10_000]
        }
        if let rounds { options.rounds = rounds }
        if options.postgresURL == nil, let url = ProcessInfo.processInfo.environment["CART_BENCH_POSTGRES_URL"], !url.isEmpty {
            options.postgresURL = url
        }
        if options.postgresURL == nil, let workload = options.only.first(where: { $0.hasPrefix("pg-") }) {
            throw BenchError.usage("--only \(workload) needs --postgres <url> or CART_BENCH_POSTGRES_URL")
        }
        if let directory = ProcessInfo.processInfo.environment["CART_BENCH_DIR"] {
            options.workDirectory = directory + "/work"
            options.cacheDirectory = directory + "/cache"
        }
        return options
    }
}

/// Why a benchmark run stopped.
enum BenchError: Error, CustomStringConvertible {
    case usage(String)
    case raw(String, code: Int32)
    case child(String)

    var description: String {
        switch self {
        case .usage(let message):
            return "\(message)\nUsage: cart-bench [--quick] [--json] [--rounds <n>] [--only <workload>]... [--postgres <url>]"
        case .raw(let call, let code): return "raw baseline: \(call) failed with code \(code)"
        case .child(let message): return "export child process: \(message)"
        }
    }
}
