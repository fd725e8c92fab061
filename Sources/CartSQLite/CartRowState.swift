import CSQLite

/// What one unit of work knows about a cart's row in `carts`: whether it exists, and its line
/// summary (`line_count`, `next_position`) as the unit's own changes to the lines left it.
///
/// `SQLiteCartStorage` reads it together with the header, changes it with every line it
/// inserts or deletes, and writes it back with the header (`saveCartHeader`), or with one
/// `UPDATE` when the unit ends without having saved the header after its last line change, so
/// the stored summary always matches the lines. A unit that rolls back drops it together with
/// the transaction.
struct CartRowState {
    /// The cart ID.
    let cartID: String
    /// Whether `carts` has a row for the cart.
    var exists: Bool
    /// How many lines the cart has.
    var lineCount: Int
    /// The position the cart's next new line takes; above every line's position.
    var nextPosition: Int
    /// Whether `lineCount` or `nextPosition` differ from the stored row.
    var isDirty = false

    /// A line was inserted at `nextPosition`.
    ///
    /// - Throws: `DatabaseError` when the stored summary has no room left (another client
    ///   wrote `next_position` or `line_count` at the top of their range); never a trap.
    mutating func lineInserted() throws {
        let (count, countOverflow) = lineCount.addingReportingOverflow(1)
        let (next, nextOverflow) = nextPosition.addingReportingOverflow(1)
        guard !countOverflow, !nextOverflow else {
            throw DatabaseError(
                extendedResultCode: SQLITE_CONSTRAINT,
                message: "cart '\(cartID)' has no room for another line: its stored line_count (\(lineCount)) or "
                    + "next_position (\(nextPosition)) is at the largest integer; run 'cart db check'")
        }
        lineCount = count
        nextPosition = next
        isDirty = true
    }

    /// Every line of the cart was deleted, however many the summary counted.
    mutating func allLinesDeleted() {
        guard lineCount != 0 else { return }
        lineCount = 0
        isDirty = true
    }

    /// `count` lines were deleted.
    mutating func linesDeleted(_ count: Int) {
        guard count > 0 else { return }
        lineCount -= count
        isDirty = true
    }
}
