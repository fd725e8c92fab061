import CartCore
import Testing
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

@Suite("MigrationPlan: what a store's record of applied migrations may say")
struct MigrationPlanTests {
    private let plan = MigrationPlan(
        (1...4).map { number in
            MigrationPlan.Migration(number: number, name: "000\(number)_step", sql: "-- \(number)", checksum: "sum\(number)")
        })

    private func record(_ numbers: [Int]) -> [AppliedMigration] {
        numbers.map { AppliedMigration(name: "000\($0)_step", checksum: "sum\($0)", appliedAt: Date(timeIntervalSince1970: 0)) }
    }

    @Test("the first migrations in order pass, and the rest are pending")
    func prefixPasses() throws {
        for count in 0...4 {
            let applied = record(Array(1..<(count + 1)))
            try plan.verify(applied)
            #expect(plan.pending(after: applied).map(\.number) == Array((count + 1)..<5))
        }
    }

    @Test("a record with a gap names what it lacks; one out of order says so; neither is taken for a newer store")
    func brokenHistory() {
        #expect(throws: MigrationError.brokenHistory(missing: ["0002_step"])) { try plan.verify(record([1, 3, 4])) }
        #expect(throws: MigrationError.brokenHistory(missing: ["0001_step", "0003_step"])) { try plan.verify(record([2, 4])) }
        #expect(throws: MigrationError.brokenHistory(missing: [])) { try plan.verify(record([2, 1])) }
        #expect(MigrationError.brokenHistory(missing: ["0002_step"]).category == .damagedStore)
        #expect(MigrationError.brokenHistory(missing: []).description.contains("out of order"))
    }

    @Test("a migration this build does not ship is a newer store's; a changed checksum is refused")
    func unknownAndChanged() {
        let future = AppliedMigration(name: "0005_future", checksum: "x", appliedAt: Date(timeIntervalSince1970: 0))
        #expect(throws: MigrationError.unknownMigrations(["0005_future"])) { try plan.verify(record([1, 2, 3, 4]) + [future]) }
        #expect(throws: MigrationError.unknownMigrations(["0005_future"])) { try plan.verify(record([1]) + [future]) }
        #expect(MigrationError.unknownMigrations(["0005_future"]).category == .incompatibleStore)
        var changed = record([1, 2])
        changed[1] = AppliedMigration(name: "0002_step", checksum: "other", appliedAt: Date(timeIntervalSince1970: 0))
        #expect(throws: MigrationError.checksumMismatch(name: "0002_step")) { try plan.verify(changed) }
    }

    @Test(
        "a row that names no migration is damage, not a newer store: an empty name, a misshapen one, a shipped number under another name",
        arguments: ["", "0005", "5_future", "0005_Future", "0002_other", "0000_zero", "\u{0}\u{0}", "0005_future\n"])
    func unrecognizedRecord(_ name: String) {
        let row = AppliedMigration(name: name, checksum: "", appliedAt: Date(timeIntervalSince1970: 0))
        #expect(throws: MigrationError.unrecognizedRecord(name)) { try plan.verify(record([1]) + [row]) }
        #expect(MigrationError.unrecognizedRecord(name).category == .damagedStore)
        #expect(!MigrationError.unrecognizedRecord(name).description.contains("\n"))
    }
}
