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
}
