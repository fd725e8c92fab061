#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import CartCore
import Testing

/// A backend overrides a fast path only to answer it in fewer steps, never differently: each
/// case compares the backend's own answer and effect with the protocols' default, which
/// `BasicStorage` reaches by hiding every override.
enum FastPathContract {
    static let cases = ContractCase.suite(
        "Fast paths answer as the defaults", key: "fastPaths",
        [
            ("lineContext", "lineContext and linesWithoutProduct answer as their defaults for lines, new lines, unknown carts and products", lineContext),
            ("productsAndCounts", "products(skus:), a page of products, cartsHolding(sku:) and the counts answer as their defaults", productsAndCounts),
            ("cartPages", "a page of carts answers as its default, for every cursor, limit and filter of empty carts", cartPages),
            ("insertAbsentProducts", "insertAbsentProducts stores and answers what its default does, for batches of every size, new and stored SKUs mixed", insertAbsentProducts),
            ("insertOrders", "insertOrders stores each order with its number, lines and instant, as its default does, for batches of every size", insertOrders),
            ("updateProductStock", "updateProductStock stores what its default stores", updateProductStock),
            ("deleteCartLines", "deleteCartLines(cartID:including:) removes and counts what its default does, lines left out of the list too", deleteCartLines),
            ("deleteCarts", "deleteCarts(updatedBefore:) deletes and counts what its default does, at the instant and a microsecond either side", deleteCarts),
        ])

    /// Thrown to roll a unit back once its outcome is read.
    private struct RollBack: Error {}

    /// What `write` returns and the state it leaves, read in its unit, which is then rolled
    /// back so that the next outcome starts from the same state.
    private static func outcome<Value>(
        _ store: Store, _ write: (any CartStorageWriter) throws -> Value
    ) throws -> (value: Value, state: StoreState)? {
        var outcome: (Value, StoreState)?
        do {
            try store.repository.write { storage in
                outcome = (try write(storage), try StoreState(storage))
                throw RollBack()
            }
        } catch is RollBack {}
        return outcome
    }

    /// Expects `write` through the backend's own storage and through its basics alone to
    /// return the same and leave the same state.
    private static func expectSameOutcome<Value: Equatable>(
        _ store: Store, _ what: Comment, sourceLocation: SourceLocation = #_sourceLocation,
        _ write: (any CartStorageWriter) throws -> Value
    ) throws {
        let own = try outcome(store, write)
        let byDefault = try outcome(store) { storage in try write(BasicStorage(storage)) }
        #expect(own?.value == byDefault?.value, "\(what): the answer", sourceLocation: sourceLocation)
        #expect(own?.state == byDefault?.state, "\(what): the stored state", sourceLocation: sourceLocation)
        #expect(own != nil, "\(what): the unit ran", sourceLocation: sourceLocation)
    }

    /// Expects a read to answer the same through the backend's own storage and its basics.
    private static func expectSameAnswer<Value: Equatable>(
        _ store: Store, _ what: Comment, sourceLocation: SourceLocation = #_sourceLocation,
        _ read: (any CartStorageReader) throws -> Value
    ) throws {
        let (own, byDefault) = try store.repository.write { storage in (try read(storage), try read(BasicStorage(storage))) }
        #expect(own == byDefault, what, sourceLocation: sourceLocation)
    }

    /// A store where alice holds apple ×2, pear ×1 and plum ×3, bob's cart was emptied by a
    /// checkout, and carol's line of a product now inactive.
    private static func cartsStore(_ backend: Backend) throws -> Store {
        let store = try Store(backend)
        try store.placeOrder("bob", [("plum", 1)])
        try store.service.add("apple", quantity: 2, to: "alice")
        try store.service.add("pear", to: "alice")
        try store.service.add("plum", quantity: 3, to: "alice")
        try store.service.add("apple", to: "carol")
        try store.service.updateProduct("apple", with: ProductUpdate(isActive: false))
        return store
    }

    static func lineContext(_ backend: Backend) throws {
        let store = try cartsStore(backend)
        for cart in ["alice", "bob", "carol", "nobody"] {
            try expectSameAnswer(store, "lines without a product of cart '\(cart)'") { storage in
                try storage.linesWithoutProduct(cartID: cart)
            }
            for sku in ["apple", "pear", "plum", "kiwi", "ghost"] {
                try expectSameAnswer(store, "cart '\(cart)', SKU '\(sku)'") { storage in
                    try storage.lineContext(cartID: cart, sku: sku)
                }
            }
        }
    }

    static func productsAndCounts(_ backend: Backend) throws {
        let store = try cartsStore(backend)
        for skus in [[], ["apple"], ["ghost"], ["plum", "ghost", "apple", "plum", "kiwi"], (0..<70).map { "p\($0)" }] {
            try expectSameAnswer(store, "products \(skus.prefix(5))") { try $0.products(skus: skus) }
        }
        for after in [nil, "", "a", "apple", "apples", "pear", "zzz"] {
            for includeInactive in [false, true] {
                for limit in [nil, 0, 1, 2, 1000] {
                    try expectSameAnswer(store, "products after \(after ?? "nil"), inactive \(includeInactive), limit \(limit.map(String.init) ?? "nil")") {
                        try $0.products(after: after, includeInactive: includeInactive, limit: limit)
                    }
                }
            }
        }
        for sku in ["apple", "pear", "plum", "kiwi", "ghost"] {
            try expectSameAnswer(store, "carts holding '\(sku)'") { try $0.cartsHolding(sku: sku) }
        }
        try expectSameAnswer(store, "productCount") { try $0.productCount() }
        try expectSameAnswer(store, "cartCount") { try $0.cartCount() }
        try expectSameAnswer(store, "orderCount") { try $0.orderCount() }
        let empty = try Store(backend, seeded: false)
        try expectSameAnswer(empty, "the counts of an empty store") {
            [try $0.productCount(), try $0.cartCount(), try $0.orderCount()]
        }
    }

    /// The carts of `cartsStore` and more, empty and not, whose IDs sort otherwise by bytes than
    /// in a dictionary's order: capitals before small letters, punctuation and digits apart.
    static func cartPages(_ backend: Backend) throws {
        let store = try cartsStore(backend)
        for cart in ["Zed", "a-b", "ab", "a b", "10", "9", "~"] { try store.service.add("pear", to: cart) }
        try store.service.clear("ab")
        try store.service.clear("9")
        let nonEmptyIDs = try store.repository.read { try $0.carts(after: nil, nonEmpty: true, limit: nil).map(\.id) }
        #expect(nonEmptyIDs == ["10", "Zed", "a b", "a-b", "alice", "carol", "~"], "the carts with lines, in byte order")
        let afters = [nil, "", "0", "10", "9", "A", "Zed", "Zee", "a", "a b", "a-b", "ab", "alice", "bob", "carol", "zzz", "~", "é"]
        for after in afters {
            for nonEmpty in [false, true] {
                for limit in [nil, 0, 1, 2, 3, 1000] {
                    try expectSameAnswer(store, "carts after \(after ?? "nil"), non-empty \(nonEmpty), limit \(limit.map(String.init) ?? "nil")") {
                        try $0.carts(after: after, nonEmpty: nonEmpty, limit: limit)
                    }
                }
            }
        }
        let empty = try Store(backend, seeded: false)
        try expectSameAnswer(empty, "a page of an empty store") { try $0.carts(after: nil, nonEmpty: false, limit: 5) }
    }

    static func insertAbsentProducts(_ backend: Backend) throws {
        let store = try cartsStore(backend)
        for count in [0, 1, 63, 64, 65, 128, 150] {
            for storedEvery in [0, 1, 7] {
                let products = (0..<count).map { (index: Int) -> Product in
                    if storedEvery > 0, index % storedEvery == 0 { return Product(sku: "apple", name: "Apple again", price: usd(1)) }
                    let stock: Int? = index % 4 == 0 ? nil : index
                    return Product(
                        sku: "n\(count - index)", name: "New \(index)", price: usd(Int64(index)), isActive: index % 3 != 0,
                        stock: stock)
                }
                // A stored SKU at most once, since the SKUs of one call differ.
                var seen = Set<String>()
                let distinct = products.filter { seen.insert($0.sku).inserted }
                try expectSameOutcome(store, "\(distinct.count) products, stored every \(storedEvery)") { storage in
                    try storage.insertAbsentProducts(distinct)
                }
            }
        }
    }

    /// `count` orders numbered from `first`: one to three lines each, names that need quoting,
    /// instants to the millisecond, a key on every other one.
    static func orders(_ count: Int, from first: Int64) -> [Order] {
        (0..<Int64(count)).map { index in
            let lines = (1...(index % 3 + 1)).map { position in
                OrderLine(
                    sku: "sku-\(position)", name: "Crème \"brûlée\" \\ {\(index)}", unitPrice: usd(index + position),
                    quantity: Int(position), lineTotal: usd((index + position) * position))
            }
            return Order(
                number: OrderNumber(rawValue: first + index), cartID: "cart-\(index % 7)",
                placedAt: UTCCalendar.date(milliseconds: UTCCalendar.milliseconds(TestClock.start) + index * 1_001),
                currency: .usd, totalItems: lines.reduce(0) { $0 + $1.quantity },
                total: usd(lines.reduce(0) { $0 + $1.lineTotal.minorUnits }), idempotencyKey: index % 2 == 0 ? "key-\(index)" : nil,
                lines: lines)
        }
    }

    static func insertOrders(_ backend: Backend) throws {
        let store = try cartsStore(backend)
        for count in [0, 1, 2, 499, 500, 501, 1_001] {
            let batch = orders(count, from: 2)
            try expectSameOutcome(store, "\(count) orders") { storage -> Bool in
                try storage.insertOrders(batch)
                return true
            }
            let state = try #require(try outcome(store) { storage in try storage.insertOrders(batch) }?.state)
            #expect(Array(state.orders.dropFirst()) == batch, "\(count) orders, read back")
            #expect(state.lastOrderNumber == OrderNumber(rawValue: Int64(count + 1)), "\(count) orders, the last number")
        }
    }

    static func updateProductStock(_ backend: Backend) throws {
        let store = try cartsStore(backend)
        for (sku, stock) in [("pear", 0), ("pear", nil), ("apple", 7), ("kiwi", 1_000_000)] as [(String, Int?)] {
            var product = try store.service.product(sku)
            product.stock = stock
            try expectSameOutcome(store, "'\(sku)' to \(stock.map(String.init) ?? "untracked")") { storage -> Bool in
                try storage.updateProductStock(product)
                return true
            }
        }
    }

    static func deleteCartLines(_ backend: Backend) throws {
        let store = try cartsStore(backend)
        let lists: [(cart: String, skus: [String])] = [
            ("alice", ["apple", "pear", "plum"]), ("alice", ["pear", "apple"]), ("alice", ["plum"]), ("alice", []),
            ("carol", ["apple"]), ("bob", []), ("nobody", []),
        ]
        for (cart, skus) in lists {
            try expectSameOutcome(store, "cart '\(cart)' listing \(skus)") { try $0.deleteCartLines(cartID: cart, including: skus) }
        }
    }

    static func deleteCarts(_ backend: Backend) throws {
        let store = try Store(backend)
        let start = TestClock.start
        for (offset, cart) in [(0.0, "old"), (99.999, "close"), (100, "edge"), (100.001, "after"), (200, "fresh")] {
            store.clock.set(start.addingTimeInterval(offset))
            try store.service.add("apple", to: cart)
        }
        let instants = [0, 100, 100.000_001, 99.999_999, 100.001, 1000].map { start.addingTimeInterval($0) }
        for instant in instants + [.distantPast, .distantFuture] {
            try expectSameOutcome(store, "before \(UTCCalendar.iso8601(instant))") { try $0.deleteCarts(updatedBefore: instant) }
        }
    }
}
