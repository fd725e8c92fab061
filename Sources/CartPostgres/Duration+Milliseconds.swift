extension Duration {
    /// The duration in whole milliseconds, rounded up so that a short timeout never becomes
    /// none; 0 for a negative duration, at most `Int64.max`.
    var roundedUpMilliseconds: Int64 {
        let (seconds, attoseconds) = components
        guard seconds > 0 || (seconds == 0 && attoseconds > 0) else { return 0 }
        let attosecondsPerMillisecond: Int64 = 1_000_000_000_000_000
        let fraction = (attoseconds + attosecondsPerMillisecond - 1) / attosecondsPerMillisecond
        let (milliseconds, overflow) = seconds.multipliedReportingOverflow(by: 1000)
        let (total, carry) = milliseconds.addingReportingOverflow(fraction)
        return overflow || carry ? Int64.max : total
    }

    /// The duration in whole seconds, rounded up; 0 for a negative duration.
    var roundedUpSeconds: Int64 {
        let milliseconds = roundedUpMilliseconds
        return milliseconds / 1000 + (milliseconds % 1000 == 0 ? 0 : 1)
    }
}
