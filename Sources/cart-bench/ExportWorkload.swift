import CartCore
import CartSQLite
import Foundation
import RawSQLiteBaseline

/// Workload 5's export: every order line as a CSV-like row written into a buffer, through
/// `CartService.forEachOrder` and through the raw baseline. Each side runs in a child process
/// (this executable again, with `--export-child`), so its peak RSS (`VmHWM`) is its own.
struct ExportWorkload {
    let options: BenchOptions
    let report: BenchReport

    /// The size of the output buffer, emptied whenever it fills, as a writer to a pipe would.
    static let bufferCapacity = 1 << 20

    func run(_ dataset: HistoryDataset) throws {
        var project: [(rate: Double, rss: Int)] = []
        var raw: [(rate: Double, rss: Int)] = []
        let rounds = options.quick ? 1 : 3
        for _ in 0..<rounds {
            project.append(try child("project", dataset.projectPath))
            raw.append(try child("raw", dataset.rawPath))
        }
        let rate = Measurement.median(project.map(\.rate))
        let rawRate = Measurement.median(raw.map(\.rate))
        let rss = project.map(\.rss).max() ?? 0
        let rawRSS = raw.map(\.rss).max() ?? 0
        report.add(
            BenchRow(
                workload: "5 CSV export of all lines, \(dataset.orders) orders", unit: "lines/s", project: rate,
                raw: rawRate, ratio: rate / rawRate, target: "≥ 500k/s, ≤ 64 MB",
                met: rate >= 500_000 && rss <= 64 << 20,
                note: "peak RSS \(rss >> 20) MB (raw \(rawRSS >> 20) MB)"))
    }

    /// Runs one export in a child process; returns its lines per second and peak RSS.
    private func child(_ side: String, _ path: String) throws -> (rate: Double, rss: Int) {
        let process = Process()
        process.executableURL = URL(
            fileURLWithPath: try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
        process.arguments = ["--export-child", side, path]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let fields = String(decoding: data, as: UTF8.self).split(whereSeparator: \.isWhitespace).compactMap { Double($0) }
        guard process.terminationStatus == 0, fields.count == 3 else {
            throw BenchError.child("\(side) export exited with \(process.terminationStatus)")
        }
        return (fields[0] / fields[1], Int(fields[2]))
    }

    /// The child's side: exports, then prints `lines seconds peakRSSBytes`.
    static func runChild(side: String, path: String) throws {
        var lines = 0
        var checksum: UInt64 = 0
        let seconds: Double
        if side == "raw" {
            let raw = try RawBaseline(path: path)
            let buffer = UnsafeMutablePointer<CChar>.allocate(capacity: bufferCapacity)
            defer { buffer.deallocate() }
            seconds = Measurement.seconds {
                lines = Int(raw_export_lines(raw.store, buffer, bufferCapacity, &checksum))
            }
        } else {
            let service = CartService(repository: try SQLiteCartRepository(path: path))
            var csv = CSVBuffer(capacity: bufferCapacity)
            seconds = try Measurement.seconds {
                try service.forEachOrder(matching: OrderQuery(sort: .oldestFirst)) { order in
                    let placedAt = UTCCalendar.milliseconds(order.placedAt)
                    for line in order.lines {
                        csv.reserveRow()
                        csv.append(order.number.rawValue)
                        csv.append(placedAt)
                        csv.append(order.cartID)
                        csv.append(line.sku)
                        csv.append(line.name)
                        csv.append(Int64(line.quantity))
                        csv.append(line.unitPrice.minorUnits)
                        csv.append(line.lineTotal.minorUnits, last: true)
                        lines += 1
                    }
                }
                checksum = csv.finish()
            }
        }
        print(lines, seconds, Measurement.peakResidentBytes())
        _ = checksum
    }
}
