@testable import CartCore
import Testing

@Suite("The in-memory backend's line table")
struct LineTableTests {
    @Test("random inserts, updates and removals keep it equal to a dictionary", arguments: [1, 2, 3] as [UInt64])
    func matchesDictionary(_ seed: UInt64) {
        var random = SplitMix64(seed: seed)
        var table = InMemoryState.LineTable(minimumCapacity: seed == 1 ? 0 : 8)
        var model: [Int: InMemoryState.LineSlot] = [:]
        var nextPosition = 0
        for _ in 0..<5_000 {
            // Ordinals up to 300, so the table grows to hundreds of lines and removals shift
            // back the lines probed past them.
            let ordinal = Int(random.next() % 300)
            switch random.next() % 4 {
            case 0, 1:
                nextPosition += 1
                let quantity = Int(random.next() % 99) + 1
                let old = table.setQuantity(quantity, ofLine: ordinal, newPosition: nextPosition)
                #expect(old?.quantity == model[ordinal]?.quantity)
                #expect(old?.position == model[ordinal]?.position)
                model[ordinal] = InMemoryState.LineSlot(quantity: quantity, position: old?.position ?? nextPosition)
            case 2:
                table[ordinal] = nil
                model[ordinal] = nil
            default:
                let line = InMemoryState.LineSlot(quantity: 7, position: -ordinal)
                table[ordinal] = line
                model[ordinal] = line
            }
            #expect(table.count == model.count)
        }
        for ordinal in 0..<300 {
            #expect(table[ordinal]?.quantity == model[ordinal]?.quantity)
            #expect(table[ordinal]?.position == model[ordinal]?.position)
        }
        let listed = Dictionary(uniqueKeysWithValues: table.all.map { ($0.ordinal, $0.line.quantity) })
        #expect(listed == model.mapValues(\.quantity))
    }

    @Test("removing every line empties it, and it takes lines again")
    func drain() {
        var table = InMemoryState.LineTable()
        for ordinal in 0..<100 { _ = table.setQuantity(1, ofLine: ordinal * 7, newPosition: ordinal) }
        for ordinal in (0..<100).reversed() { table[ordinal * 7] = nil }
        #expect(table.isEmpty)
        #expect(table.all.map(\.ordinal).isEmpty)
        _ = table.setQuantity(2, ofLine: 5, newPosition: 1)
        #expect(table[5]?.quantity == 2)
        #expect(table.count == 1)
    }

    /// A table of 8 buckets holding `ordinals` in order, each line's quantity its ordinal + 1.
    private func table(_ ordinals: [Int]) -> InMemoryState.LineTable {
        var table = InMemoryState.LineTable()
        for (position, ordinal) in ordinals.enumerated() {
            _ = table.setQuantity(ordinal + 1, ofLine: ordinal, newPosition: position + 1)
        }
        return table
    }

    /// Where each ordinal sits, or `nil` for one the table does not hold.
    private func buckets(_ table: InMemoryState.LineTable, _ ordinals: [Int]) -> [Int?] {
        ordinals.map { table.find($0).found ? table.find($0).index : nil }
    }

    @Test("a probe chain wraps from the last bucket to the first, and a removal shifts it back")
    func wrappedChain() {
        // In 8 buckets, ordinals 8, 16 and 21 start at the last bucket, 7; ordinal 0 at bucket 0.
        var table = table([8, 16, 21, 0])
        #expect(table.capacity == 8)
        #expect([8, 16, 21, 0].map(table.home) == [7, 7, 7, 0])
        #expect(buckets(table, [8, 16, 21, 0]) == [7, 0, 1, 2])
        table[8] = nil
        #expect(buckets(table, [8, 16, 21, 0]) == [nil, 7, 0, 1])
        #expect([8, 16, 21, 0].map { table[$0]?.quantity } == [nil, 17, 22, 1])
        #expect([16, 21, 0].map { table[$0]?.position } == [2, 3, 4])
        #expect(table.count == 3)
    }

    @Test("a removal in a wrapped chain leaves a line whose home lies after the hole")
    func wrappedChainKeepsLaterHome() {
        // Ordinal 2 starts at bucket 1 and sits there, between lines that started at bucket 7.
        var table = table([8, 16, 2, 21])
        #expect(table.home(2) == 1)
        #expect(buckets(table, [8, 16, 2, 21]) == [7, 0, 1, 2])
        table[16] = nil
        #expect(buckets(table, [8, 16, 2, 21]) == [7, nil, 1, 0])
        #expect([8, 16, 2, 21].map { table[$0]?.quantity } == [9, nil, 3, 22])
    }

    @Test("a line removed from a wrapped chain and set again goes to the chain's end, at its new position")
    func reinsertIntoWrappedChain() {
        var table = table([8, 16, 21, 0])
        table[8] = nil
        #expect(table.setQuantity(5, ofLine: 8, newPosition: 9) == nil)
        #expect(buckets(table, [8, 16, 21, 0]) == [2, 7, 0, 1])
        #expect([8, 16, 21, 0].map { table[$0]?.quantity } == [5, 17, 22, 1])
        #expect(table.setQuantity(6, ofLine: 8, newPosition: 10)?.position == 9)
        #expect(table[8]?.position == 9)
        #expect(table.count == 4)
    }

    @Test("8 buckets hold 6 lines; the seventh doubles them and keeps every line")
    func growsAtThreeQuarters() {
        var table = table(Array(0..<6))
        #expect(table.capacity == 8)
        #expect(table.count == 6)
        #expect(table.setQuantity(60, ofLine: 5, newPosition: 99)?.quantity == 6, "an update adds no line")
        #expect(table.capacity == 8)
        #expect(table.setQuantity(7, ofLine: 6, newPosition: 7) == nil)
        #expect(table.capacity == 16)
        #expect(table.count == 7)
        #expect((0..<7).map { table[$0]?.quantity } == [1, 2, 3, 4, 5, 60, 7])
        #expect((0..<7).map { table[$0]?.position } == [1, 2, 3, 4, 5, 6, 7])
        #expect(InMemoryState.LineTable(minimumCapacity: 6).capacity == 8)
        #expect(InMemoryState.LineTable(minimumCapacity: 7).capacity == 16)
    }
}
