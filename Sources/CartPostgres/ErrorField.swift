import CLibpq
import CLibpqLoader

/// The fields of an error or notice result that this layer reads (libpq's `PG_DIAG_*`
/// codes, character macros that Swift does not import).
enum ErrorField: UInt8 {
    case severity = 0x56  // "V": PG_DIAG_SEVERITY_NONLOCALIZED, never translated
    case sqlState = 0x43  // "C"
    case primaryMessage = 0x4D  // "M"
    case detail = 0x44  // "D"
    case hint = 0x48  // "H"
    case constraint = 0x6E  // "n"

    /// The field's value in `result`, if it has one.
    func value(in result: OpaquePointer) -> String? {
        cart_PQresultErrorField(result, Int32(rawValue)).map { String(cString: $0) }
    }
}
