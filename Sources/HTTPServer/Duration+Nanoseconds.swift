extension Duration {
    /// The duration in nanoseconds, 0 when negative, clamped to `Int.max`.
    var clampedNanoseconds: Int {
        let (seconds, attoseconds) = components
        guard seconds >= 0 else { return 0 }
        let (whole, wholeOverflow) = Int(clamping: seconds).multipliedReportingOverflow(by: 1_000_000_000)
        let (total, totalOverflow) = whole.addingReportingOverflow(Int(attoseconds / 1_000_000_000))
        return wholeOverflow || totalOverflow ? .max : total
    }
}
