#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A value that passed its `ValueKind` check, already converted.
enum ParsedValue: Equatable {
    case text(String)
    case integer(Int)
    case date(Date)

    var text: String? {
        if case .text(let text) = self { return text }
        return nil
    }

    var integer: Int? {
        if case .integer(let value) = self { return value }
        return nil
    }

    var date: Date? {
        if case .date(let date) = self { return date }
        return nil
    }
}
