import Foundation

/// One row of the results: a workload measured through the project and, where there is one,
/// through the raw baseline in the same run.
struct BenchRow: Codable {
    /// The workload, as numbered in docs/BENCHMARKS.md.
    var workload: String
    /// The unit of `project` and `raw`.
    var unit: String
    var project: Double
    var raw: Double?
    /// project / raw for throughputs, raw / project for latencies: higher is better for both.
    var ratio: Double?
    /// The target in words, such as `ratio ≥ 0.9`.
    var target: String
    var met: Bool?
    /// Extra readings (peak RSS, p99…).
    var note: String = ""
}

/// Collects rows and prints them as an aligned table or JSON.
final class BenchReport {
    private(set) var rows: [BenchRow] = []
    let options: BenchOptions

    init(options: BenchOptions) { self.options = options }

    /// A throughput row: higher is better, target on project/raw.
    func throughput(_ workload: String, unit: String, project: Double, raw: Double, minimumRatio: Double) {
        let ratio = project / raw
        add(
            BenchRow(
                workload: workload, unit: unit, project: project, raw: raw, ratio: ratio,
                target: "ratio ≥ \(minimumRatio)", met: ratio >= minimumRatio))
    }

    /// The p50 rows of the history pages, one cart and a date range, from samples in ms keyed
    /// `project-cart`, `raw-cart`, `project-range` and `raw-range`; `prefix` numbers the workload.
    func pageLatencies(_ prefix: String, orders: Int, samples: [String: [Double]]) {
        for (kind, label) in [("cart", "one cart"), ("range", "a date range")] {
            let project = samples["project-" + kind] ?? []
            let rawSamples = samples["raw-" + kind] ?? []
            let p50 = Measurement.median(project)
            let rawP50 = Measurement.median(rawSamples)
            add(
                BenchRow(
                    workload: "\(prefix) history page of 20, \(label), \(orders) orders", unit: "ms p50", project: p50,
                    raw: rawP50, ratio: rawP50 / p50, target: "p50 ≤ 1 ms", met: p50 <= 1,
                    note: String(
                        format: "p99 %.3f ms (raw %.3f ms)", Measurement.percentile(project, 0.99),
                        Measurement.percentile(rawSamples, 0.99))))
        }
    }

    func add(_ row: BenchRow) {
        rows.append(row)
        if !options.json {
            FileHandle.standardError.write(Data(("  " + Self.line(row, width: Self.workloadWidth) + "\n").utf8))
        }
    }

    func printResults() throws {
        if options.json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            print(String(decoding: try encoder.encode(rows), as: UTF8.self))
            return
        }
        // The final table fits its longest workload name; rows printed as they finish use a
        // fixed width, since later names are not known yet.
        let width = rows.map(\.workload.count).max().map { Swift.max($0, Self.workloadWidth) } ?? Self.workloadWidth
        print(Self.header(width: width))
        for row in rows { print(Self.line(row, width: width)) }
    }

    static let workloadWidth = 44

    static func header(width: Int) -> String {
        "workload".padding(width) + " " + "project".leftPadding(12) + " " + "raw".leftPadding(12) + " "
            + "unit".padding(10) + " " + "ratio".leftPadding(6) + "  " + "target".padding(16) + " met"
    }

    static func line(_ row: BenchRow, width: Int) -> String {
        row.workload.padding(width) + " " + format(row.project).leftPadding(12) + " "
            + (row.raw.map(format) ?? "-").leftPadding(12) + " " + row.unit.padding(10) + " "
            + (row.ratio.map { String(format: "%.2f", $0) } ?? "-").leftPadding(6) + "  " + row.target.padding(16) + " "
            + (row.met.map { $0 ? "yes" : "NO" } ?? "-") + (row.note.isEmpty ? "" : "  " + row.note)
    }

    static func format(_ value: Double) -> String {
        if value >= 100 { return String(format: "%.0f", value) }
        if value >= 1 { return String(format: "%.2f", value) }
        return String(format: "%.4f", value)
    }
}

extension String {
    func padding(_ width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }

    func leftPadding(_ width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }
}
