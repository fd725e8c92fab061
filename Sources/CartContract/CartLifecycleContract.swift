import CartCore
import Testing
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Merging carts, listing them and pruning the abandoned ones.
enum CartLifecycleContract {
    static let cases = ContractCase.suite(
        "Merging, listing and pruning carts", key: "lifecycle",
        [
            ("mergeSums", "merging sums quantities of the same SKU and appends new lines", mergeSums),
            ("mergeEmptiesSource", "merging empties the source and moves both versions", mergeEmptiesSource),
            ("mergeClampsToCap", "a merged line over the per-line cap is clamped to it and reported", mergeClampsToCap),
            ("mergeClampsToStock", "a merged line over the tracked stock is clamped to it and reported", mergeClampsToStock),
            ("mergeReportsInactive", "an inactive product is left out of a merge and reported", mergeReportsInactive),
            ("mergeReportsLinesCap", "new lines past the lines cap are left out of a merge and reported", mergeReportsLinesCap),
            ("mergeRollsBack", "a merge that fails midway leaves both carts as they were", mergeRollsBack),
            ("mergeEdgeCases", "merging a cart into itself is refused; merging an emptied cart changes nothing; a cart never written is not found, or empty when the caller says so", mergeEdgeCases),
            ("mergeIfVersion", "a merge with an expected version happens only while the target is at it", mergeIfVersion),
            ("listCarts", "listing carts gives each cart's lines, units, version and last change", listCarts),
            ("cartPages", "carts(matching:) leaves out emptied carts when asked and pages by ID", cartPages),
            ("prune", "pruning deletes carts unchanged since the instant and says how many", prune),
            ("pruneKeepsOrders", "pruning never deletes orders", pruneKeepsOrders),
        ])

    /// A merge adjustment as plain, comparable values.
    private struct Adjusted: Equatable {
        var sku: String
        var requested: Int
        var kept: Int
        var reason: MergeResult.Reason

        /// The adjustments of `result`.
        static func of(_ result: MergeResult) -> [Adjusted] {
            result.adjustments.map { Adjusted(sku: $0.sku, requested: $0.requested, kept: $0.kept, reason: $0.reason) }
        }
    }

    static func mergeSums(_ backend: Backend) throws {
        let store = try Store(backend)
        try store.service.add("apple", quantity: 2, to: "customer")
        try store.service.add("plum", quantity: 3, to: "anon")
        try store.service.add("apple", quantity: 4, to: "anon")
        let result = try store.service.merge(from: "anon", into: "customer")
        #expect(result.mergedLines == 2)
        #expect(result.adjustments.isEmpty)
        #expect(result.cart == (try store.service.cart("customer")))
        #expect(try store.skus("customer") == ["apple", "plum"])
        #expect(try store.quantities("customer") == ["apple": 6, "plum": 3])
    }

    static func mergeEmptiesSource(_ backend: Backend) throws {
        let store = try Store(backend)
        try store.service.add("apple", to: "customer")
        try store.service.add("pear", to: "anon")
        try store.service.add("plum", to: "anon")
        _ = try store.service.merge(from: "anon", into: "customer")
        let source = try store.service.cart("anon")
        #expect(source.isEmpty)
        #expect(source.version == 3)
        #expect(try store.service.cart("customer").version == 2)
        #expect(try store.stock("pear") == 5, "merging reserves no stock")
    }

    static func mergeClampsToCap(_ backend: Backend) throws {
        let store = try Store(backend)
        try store.service.add("apple", quantity: 60, to: "customer")
        try store.service.add("apple", quantity: 50, to: "anon")
        let result = try store.service.merge(from: "anon", into: "customer")
        #expect(Adjusted.of(result) == [Adjusted(sku: "apple", requested: 110, kept: 99, reason: .lineCap(99))])
        #expect(try store.quantities("customer") == ["apple": 99])
        #expect(try store.service.cart("anon").isEmpty)
    }

    static func mergeClampsToStock(_ backend: Backend) throws {
        let store = try Store(backend)
        try store.service.add("pear", quantity: 3, to: "customer")
        try store.service.add("pear", quantity: 4, to: "anon")
        let result = try store.service.merge(from: "anon", into: "customer")
        #expect(Adjusted.of(result) == [Adjusted(sku: "pear", requested: 7, kept: 5, reason: .stock(5))])
        #expect(try store.quantities("customer") == ["pear": 5])
    }

    static func mergeReportsInactive(_ backend: Backend) throws {
        let store = try Store(backend)
        try store.service.add("plum", quantity: 2, to: "anon")
        try store.service.add("apple", to: "anon")
        try store.service.updateProduct("plum", with: ProductUpdate(isActive: false))
        let result = try store.service.merge(from: "anon", into: "customer")
        #expect(Adjusted.of(result) == [Adjusted(sku: "plum", requested: 2, kept: 0, reason: .inactiveProduct)])
        #expect(try store.quantities("customer") == ["apple": 1])
        #expect(try store.service.cart("anon").isEmpty)
    }

    static func mergeReportsLinesCap(_ backend: Backend) throws {
        let store = try Store(backend)
        try store.service.updateSettings(maxLinesPerCart: 2)
        try store.service.add("apple", to: "customer")
        try store.service.add("pear", to: "anon")
        try store.service.add("plum", to: "anon")
        let result = try store.service.merge(from: "anon", into: "customer")
        #expect(Adjusted.of(result) == [Adjusted(sku: "plum", requested: 1, kept: 0, reason: .lineCountCap(2))])
        #expect(try store.skus("customer") == ["apple", "pear"])
    }

    static func mergeRollsBack(_ backend: Backend) throws {
        let store = try Store(backend)
        try store.service.add("pear", to: "customer")
        try store.service.add("apple", to: "anon")
        try store.service.add("pear", to: "anon")
        let before = try store.state()
        // Writes of the merge: apple line, pear line, source lines cleared, two headers.
        for failing in 1...5 {
            let faulty = CartService(repository: FaultInjectingRepository(base: store.repository, failOnWrite: failing))
            #expect(throws: FaultInjectingRepository.InjectedFault.self) { try faulty.merge(from: "anon", into: "customer") }
            #expect(try store.state() == before, "failing write \(failing)")
        }
        let unfaulted = CartService(repository: FaultInjectingRepository(base: store.repository, failOnWrite: 6))
        #expect(try unfaulted.merge(from: "anon", into: "customer").mergedLines == 2)
    }

    static func mergeEdgeCases(_ backend: Backend) throws {
        let store = try Store(backend)
        try store.service.add("apple", to: "customer")
        #expect(throws: CartError.mergeIntoSelf("customer")) { try store.service.merge(from: "customer", into: "customer") }
        try store.service.add("apple", to: "emptied")
        try store.service.clear("emptied")
        try store.placeOrder("ordered", [("apple", 1)])
        let before = try store.state()
        for source in ["emptied", "ordered"] {
            let result = try store.service.merge(from: source, into: "customer")
            #expect(result.mergedLines == 0)
            #expect(result.adjustments.isEmpty)
        }
        #expect(try store.state() == before, "merging a cart with no lines moves no version and creates nothing")
        try store.expectRefusal(.cartNotFound("nobody")) { try store.service.merge(from: "nobody", into: "customer") }
        try store.expectRefusal(.cartNotFound("nobody")) { try store.service.merge(from: "nobody", into: "new") }
        // A caller that knows the ID names a cart that reads as empty until written merges nothing.
        let nothing = try store.service.merge(from: "nobody", into: "customer", unwrittenSourceIsEmpty: true)
        #expect(nothing.mergedLines == 0 && nothing.adjustments.isEmpty)
        #expect(nothing.report == (try store.service.cartReport("customer")))
        #expect(try store.state() == before)
        try store.expectRefusal(.versionConflict(cart: "customer", expected: 9, actual: 1)) {
            try store.service.merge(from: "nobody", into: "customer", expectedVersion: 9, unwrittenSourceIsEmpty: true)
        }
    }

    static func mergeIfVersion(_ backend: Backend) throws {
        let store = try Store(backend)
        try store.service.add("apple", to: "customer")
        try store.service.add("apple", to: "customer")
        try store.service.add("pear", to: "anon")
        try store.expectRefusal(.versionConflict(cart: "customer", expected: 1, actual: 2)) {
            try store.service.merge(from: "anon", into: "customer", expectedVersion: 1)
        }
        // A target never written is at version 0; the version is checked before the source.
        try store.expectRefusal(.versionConflict(cart: "new", expected: 2, actual: 0)) {
            try store.service.merge(from: "anon", into: "new", expectedVersion: 2)
        }
        try store.expectRefusal(.versionConflict(cart: "customer", expected: 1, actual: 2)) {
            try store.service.merge(from: "nobody", into: "customer", expectedVersion: 1)
        }
        let result = try store.service.merge(from: "anon", into: "customer", expectedVersion: 2)
        #expect(result.mergedLines == 1)
        #expect(result.cart.version == 3)
        try store.service.add("plum", to: "other")
        #expect(try store.service.merge(from: "other", into: "fresh", expectedVersion: 0).cart.version == 1)
    }

    static func listCarts(_ backend: Backend) throws {
        let store = try Store(backend)
        try store.service.add("apple", quantity: 2, to: "bob")
        store.clock.advance(seconds: 10)
        try store.service.add("pear", quantity: 3, to: "alice")
        try store.service.add("apple", to: "alice")
        store.clock.advance(seconds: 10)
        try store.service.add("plum", to: "carol")
        try store.service.clear("carol")
        #expect(
            try store.service.listCarts() == [
                CartSummary(id: "alice", lineCount: 2, totalItems: 4, version: 2, updatedAt: TestClock.start + 10),
                CartSummary(id: "bob", lineCount: 1, totalItems: 2, version: 1, updatedAt: TestClock.start),
                CartSummary(id: "carol", lineCount: 0, totalItems: 0, version: 2, updatedAt: TestClock.start + 20),
            ])
    }

    static func cartPages(_ backend: Backend) throws {
        let store = try Store(backend)
        for cart in ["dan", "bob", "eve", "alice", "carol"] { try store.service.add("apple", to: cart) }
        try store.placeOrder("bob", [("pear", 1)])
        try store.service.clear("eve")
        let s = store.service
        #expect(try s.carts(matching: CartQuery()).carts.map(\.id) == ["alice", "bob", "carol", "dan", "eve"])
        #expect(try s.carts(matching: CartQuery()).carts == (try s.listCarts()))
        #expect(try s.carts(matching: CartQuery(nonEmpty: true)).carts.map(\.id) == ["alice", "carol", "dan"])
        var query = CartQuery(limit: 2)
        var pages: [[String]] = []
        while true {
            let page = try s.carts(matching: query)
            pages.append(page.carts.map(\.id))
            guard let next = page.next else { break }
            query.after = next
        }
        #expect(pages == [["alice", "bob"], ["carol", "dan"], ["eve"]])
        let nonEmpty = try s.carts(matching: CartQuery(nonEmpty: true, after: "alice", limit: 1))
        #expect(nonEmpty == CartPage(carts: [try #require(s.listCarts().first { $0.id == "carol" })], next: "carol"))
        #expect(try s.carts(matching: CartQuery(nonEmpty: true, after: "carol", limit: 1)).next == nil)
        for limit in [0, 10_001] {
            #expect(throws: CartError.invalidLimit(limit)) { try s.carts(matching: CartQuery(limit: limit)) }
        }
        for nonEmpty in [false, true] {
            #expect(throws: CartError.invalidCartID("", reason: "it is empty"), "an empty cursor is no page's next") {
                try s.carts(matching: CartQuery(nonEmpty: nonEmpty, after: "", limit: 2))
            }
        }
    }

    static func prune(_ backend: Backend) throws {
        let store = try Store(backend)
        try store.service.add("apple", to: "old")
        try store.service.add("apple", to: "stale")
        store.clock.advance(seconds: 100)
        try store.service.add("apple", to: "edge")
        store.clock.advance(seconds: 100)
        try store.service.add("apple", to: "fresh")
        #expect(try store.service.prune(olderThan: TestClock.start + 100) == 2)
        #expect(try store.service.listCarts().map(\.id) == ["edge", "fresh"], "a cart changed at the instant stays")
        #expect(try store.service.cart("old") == (try Cart(id: "old", version: 0, lines: [], currency: .usd)))
        #expect(try store.service.prune(olderThan: TestClock.start) == 0)
    }

    static func pruneKeepsOrders(_ backend: Backend) throws {
        let store = try Store(backend)
        let order = try store.placeOrder("alice", [("pear", 2)])
        #expect(try store.service.prune(olderThan: .distantFuture) == 1)
        #expect(try store.service.listCarts().isEmpty)
        #expect(try store.service.order(1) == order)
        #expect(try store.stock("pear") == 3)
        #expect(try store.placeOrder("alice", [("apple", 1)]).number == 2)
    }
}
