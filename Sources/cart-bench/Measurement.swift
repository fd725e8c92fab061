import Foundation

/// Timing and memory readings for the benchmark.
enum Measurement {
    /// Nanoseconds on the monotonic clock.
    @inline(__always)
    static func now() -> UInt64 {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec)
    }

    /// Milliseconds since the Unix epoch, as the raw baseline stamps its rows.
    @inline(__always)
    static func wallClockMilliseconds() -> Int64 {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return Int64(spec.tv_sec) * 1000 + Int64(spec.tv_nsec) / 1_000_000
    }

    /// Seconds `body` took.
    static func seconds(_ body: () throws -> Void) rethrows -> Double {
        let start = now()
        try body()
        return Double(now() - start) / 1e9
    }

    /// Runs `project` and `raw` alternately, `rounds` times each; returns their medians. The
    /// side that goes first changes from round to round, so that neither always meets the
    /// state the other left (a cold cache, a checkpoint, autovacuum after a dropped schema).
    static func alternate(rounds: Int, project: () throws -> Double, raw: () throws -> Double) rethrows -> (Double, Double) {
        var projectRates: [Double] = []
        var rawRates: [Double] = []
        for round in 0..<rounds {
            if round.isMultiple(of: 2) {
                projectRates.append(try project())
                rawRates.append(try raw())
            } else {
                rawRates.append(try raw())
                projectRates.append(try project())
            }
        }
        return (median(projectRates), median(rawRates))
    }

    /// The middle value (the mean of the two middle values for an even count).
    static func median(_ values: [Double]) -> Double {
        percentile(values, 0.5)
    }

    /// The value below which `fraction` of `values` fall, interpolated between neighbours.
    static func percentile(_ values: [Double], _ fraction: Double) -> Double {
        guard !values.isEmpty else { return .nan }
        let sorted = values.sorted()
        let position = fraction * Double(sorted.count - 1)
        let lower = Int(position.rounded(.down))
        let upper = min(lower + 1, sorted.count - 1)
        return sorted[lower] + (sorted[upper] - sorted[lower]) * (position - Double(lower))
    }

    /// This process's peak resident set size in bytes (`VmHWM`), or 0 if unreadable.
    static func peakResidentBytes() -> Int {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
        for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
            let digits = line.split(separator: " ").compactMap { Int($0) }
            return (digits.first ?? 0) * 1024
        }
        return 0
    }
}
