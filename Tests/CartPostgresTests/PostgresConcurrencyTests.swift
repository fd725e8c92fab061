import CartCore
import CartPostgres
import Foundation
import Synchronization
import Testing

/// Units of many repositories at once, each with connections of its own, as processes on
/// several application hosts would run them against one database.
@Suite("PostgreSQL repository under concurrency", TestServer.requires())
struct PostgresConcurrencyTests {
    static let apple = Product(sku: "apple", name: "Apple", price: Money(minorUnits: 125, currency: .usd))
    static let roomy = StoreOptions(initialSettings: StoreSettings(currency: .usd, maxLineQuantity: 1000, maxLinesPerCart: 100))

    @Test("8 threads opening a new store at once migrate it once")
    func firstUseMigratesOnce() throws {
        let schema = try TestSchema()
        defer { try? schema.drop() }
        let errors = onThreads(8) { _ in _ = try schema.repository() }
        #expect(errors.isEmpty, "\(errors)")
        let counts = try schema.execute(
            "SELECT (SELECT count(*) FROM schema_migrations), (SELECT count(*) FROM settings), (SELECT count(*) FROM order_numbers)")[0]
        let status = try schema.repository().status()
        #expect(status.pendingMigrations.isEmpty)
        #expect(try counts.int(0) == status.schemaVersion)
        #expect(try counts.int(1) == 1)
        #expect(try counts.int(2) == 1)
    }

    @Test("sessions ended at random during adds: an add reported done is saved, one reported unavailable is not")
    func endedSessionsNeverMisreportAnAdd() throws {
        let schema = try TestSchema()
        defer { try? schema.drop() }
        // The name the server shows for this repository's sessions, and no other test's.
        let url = schema.url + "&application_name=" + schema.name
        let service = CartService(repository: try PostgresCartRepository(url: url, options: Self.roomy))
        try service.addProduct(Self.apple)
        let stop = Atomic<Bool>(false)
        let killed = Atomic<Int>(0)
        let killer = Thread {
            guard let connection = try? TestServer.connect() else { return }
            while !stop.load(ordering: .relaxed) {
                let ended = try? connection.execute(
                    "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE application_name = $1", [.text(schema.name)])
                killed.add((try? ended?[0].int(0) ?? 0) ?? 0, ordering: .relaxed)
                usleep(UInt32.random(in: 5_000...30_000))
            }
        }
        killer.start()
        // One new cart an add, so that whether each add was saved can be read afterwards.
        var outcomes: [ErrorCategory?] = []
        for index in 0..<1_000 {
            do {
                try service.add("apple", to: "cart-\(index)")
                outcomes.append(nil)
            } catch {
                outcomes.append(ErrorCategory(of: error))
            }
            if outcomes.count(where: { $0 != nil }) >= 60 { break }
        }
        stop.store(true, ordering: .relaxed)
        let reader = CartService(repository: try schema.repository())
        for (index, outcome) in outcomes.enumerated() {
            let saved = try reader.cart("cart-\(index)").totalItems == 1
            switch outcome {
            case nil: #expect(saved, "add \(index) was reported done")
            case .unavailable: #expect(!saved, "add \(index) was reported unavailable, to be tried again, yet it was saved")
            case .outcomeUnknown: break
            case let other: Issue.record("add \(index) failed as \(String(describing: other))")
            }
        }
        #expect(outcomes.contains { $0 != nil }, "no session was ended mid-add (\(killed.load(ordering: .relaxed)) ended)")
    }

    @Test("8 threads × 25 adds of one line through 8 repositories total 200")
    func addsOnOneLine() throws {
        let schema = try TestSchema()
        defer { try? schema.drop() }
        try CartService(repository: schema.repository(Self.roomy)).addProduct(Self.apple)
        let errors = onThreads(8) { _ in
            let service = CartService(repository: try schema.repository())
            for _ in 0..<25 { try service.add("apple", to: "shared") }
        }
        #expect(errors.isEmpty, "\(errors)")
        let cart = try CartService(repository: schema.repository()).cart("shared")
        #expect(cart.lines.map(\.quantity) == [200])
        #expect(cart.version == 200)
    }

    @Test("8 racing checkouts with one idempotency key place one order, the others replay it")
    func idempotentCheckouts() throws {
        let schema = try TestSchema()
        defer { try? schema.drop() }
        let setup = CartService(repository: try schema.repository())
        try setup.addProduct(Self.apple)
        try setup.add("apple", quantity: 3, to: "alice")
        let results = Collector<CheckoutResult>()
        let errors = onThreads(8) { _ in
            results.append(try CartService(repository: schema.repository()).checkout("alice", idempotencyKey: "alice-1"))
        }
        #expect(errors.isEmpty, "\(errors)")
        #expect(results.all.count == 8)
        #expect(results.all.filter { !$0.replayed }.count == 1)
        #expect(Set(results.all.map(\.order.number)) == [1])
        #expect(try setup.counts().orders == 1)
    }

    @Test("8 carts racing to check out the last 3 units: 3 orders, stock 0, never below")
    func lastUnits() throws {
        let schema = try TestSchema()
        defer { try? schema.drop() }
        let setup = CartService(repository: try schema.repository())
        try setup.addProduct(Product(sku: "last", name: "Last ones", price: Money(minorUnits: 500, currency: .usd), stock: 3))
        for cart in 0..<8 { try setup.add("last", to: "cart-\(cart)") }
        let errors = onThreads(8) { cart in _ = try CartService(repository: schema.repository()).checkout("cart-\(cart)") }
        #expect(errors.count == 5)
        for error in errors {
            guard case .cannotCheckOut(_, let problems) = error as? CartError else {
                Issue.record("\(error) is not a refused checkout")
                continue
            }
            #expect(problems.map(\.code) == [.insufficientStock] && problems.map(\.sku) == ["last"])
        }
        #expect(try setup.product("last").stock == 0)
        #expect(try setup.counts().orders == 3)
    }

    @Test("8 threads checking out 10 carts each get gapless numbers 1 to 80")
    func gaplessNumbers() throws {
        let schema = try TestSchema()
        defer { try? schema.drop() }
        try CartService(repository: schema.repository()).addProduct(Self.apple)
        let numbers = Collector<Int64>()
        let errors = onThreads(8) { thread in
            let service = CartService(repository: try schema.repository())
            for round in 0..<10 {
                try service.add("apple", to: "cart-\(thread)-\(round)")
                numbers.append(try service.checkout("cart-\(thread)-\(round)").order.number.rawValue)
            }
        }
        #expect(errors.isEmpty, "\(errors)")
        #expect(numbers.all.sorted() == Array(1...80))
        let orders = try CartService(repository: schema.repository()).orders(matching: OrderQuery(sort: .oldestFirst, limit: 100))
        #expect(orders.orders.map(\.number.rawValue) == Array(1...80))
    }

    @Test("a unit that loses a deadlock runs again and succeeds")
    func deadlockRetried() throws {
        let schema = try TestSchema()
        defer { try? schema.drop() }
        let setup = CartService(repository: try schema.repository())
        try setup.addProduct(Product(sku: "x", name: "X", price: Money(minorUnits: 1, currency: .usd)))
        try setup.addProduct(Product(sku: "y", name: "Y", price: Money(minorUnits: 1, currency: .usd)))
        let locked = [DispatchSemaphore(value: 0), DispatchSemaphore(value: 0)]
        let attempts = Atomic<Int>(0)
        // Each unit locks one product, waits (on its first run only) until the other has
        // locked the other one, and then asks for it: one of them is chosen to break the
        // deadlock, and runs again once the other has committed.
        let errors = onThreads(2) { thread in
            let repository = try schema.repository()
            let (first, second) = thread == 0 ? ("x", "y") : ("y", "x")
            var run = 0
            try repository.write { storage in
                run += 1
                attempts.add(1, ordering: .relaxed)
                _ = try storage.product(sku: first)
                if run == 1 {
                    locked[thread].signal()
                    locked[1 - thread].wait()
                }
                _ = try storage.product(sku: second)
            }
        }
        #expect(errors.isEmpty, "\(errors)")
        // 3 runs: both units, and the loser again; more when the loser's new run takes its
        // first lock back before the winner has it, and loses again.
        #expect((3...PostgresCartRepository.maximumAttempts + 1).contains(attempts.load(ordering: .relaxed)))
    }

    @Test("units that keep conflicting run a bounded number of times, then fail as unavailable")
    func retriesBounded() throws {
        let schema = try TestSchema()
        defer { try? schema.drop() }
        let repository = try schema.repository()
        for state in ["40P01", "40001"] {
            var attempts = 0
            let error = #expect(throws: PostgresError.self) {
                try repository.write { _ in
                    attempts += 1
                    throw PostgresError(kind: .server, message: "conflict", sqlState: state)
                }
            }
            #expect(attempts == PostgresCartRepository.maximumAttempts)
            #expect(error.map(ErrorCategory.init(of:)) == .unavailable)
        }
        var attempts = 0
        #expect(throws: CartError.emptyCart("x")) {
            try repository.write { _ in
                attempts += 1
                throw CartError.emptyCart("x")
            }
        }
        #expect(attempts == 1, "other errors end the unit at once")
    }

    @Test("a unit refused for a lock another session holds leaves its connections fit: reads and writes succeed once it goes")
    func lockTimeoutLeavesNothingBehind() throws {
        let schema = try TestSchema()
        defer { try? schema.drop() }
        let repository = try schema.repository(StoreOptions(busyTimeout: .milliseconds(300)))
        let service = CartService(repository: repository)
        try service.addProduct(Self.apple)
        try service.add("apple", to: "alice")
        let holder = try PostgresConnection(schema.url)
        try holder.executeScript("BEGIN; LOCK TABLE carts IN EXCLUSIVE MODE")
        let error = #expect(throws: (any Error).self) { try service.add("apple", to: "alice") }
        #expect(error.map(ErrorCategory.init(of:)) == .unavailable)
        #expect(try service.cart("alice").totalItems == 1)
        try holder.executeScript("COMMIT")
        try CartService(repository: try schema.repository()).add("apple", to: "alice")
        #expect(try service.cart("alice").totalItems == 2)
        try service.add("apple", to: "alice")
        #expect(try service.cart("alice").totalItems == 3)
    }

    @Test("a change read back with its report locks none of the cart's other products")
    func reportTakesNoLocks() throws {
        let schema = try TestSchema()
        defer { try? schema.drop() }
        let repository = try schema.repository(StoreOptions(busyTimeout: .milliseconds(300)))
        let service = CartService(repository: repository)
        try service.addProduct(Self.apple)
        try service.addProduct(Product(sku: "pear", name: "Pear", price: Self.apple.price))
        try service.add("apple", to: "alice")
        // What another cart's change of apple holds while it runs: a share lock on the row,
        // which a report that locked its lines' products for update would wait for.
        let holder = try PostgresConnection(schema.url)
        try holder.executeScript("BEGIN; SELECT 1 FROM products WHERE sku = 'apple' FOR SHARE")
        defer { try? holder.executeScript("ROLLBACK") }
        let report = try service.applyAndReport(.add(sku: "pear", quantity: 2), to: "alice").report
        #expect(report.cart.lines.map(\.sku) == ["apple", "pear"])
        #expect(report.cart.version == 2)
        #expect(report == (try service.cartReport("alice")))
    }

    @Test("an order export paused in its read unit holds up neither a settings change nor an add")
    func pausedExportHoldsNothingUp() throws {
        let schema = try TestSchema()
        defer { try? schema.drop() }
        let quick = StoreOptions(busyTimeout: .milliseconds(300), initialSettings: Self.roomy.initialSettings)
        let service = CartService(repository: try schema.repository(quick))
        try service.addProduct(Self.apple)
        try service.add("apple", to: "alice")
        _ = try service.checkout("alice")
        // Another host's service, on connections of its own.
        let other = CartService(repository: try schema.repository(quick))
        var exported = 0
        try service.forEachOrder(matching: OrderQuery()) { _ in
            exported += 1
            try other.updateSettings(maxLineQuantity: 500)
            try other.add("apple", quantity: 2, to: "bob")
        }
        #expect(exported == 1)
        #expect(try service.settings().maxLineQuantity == 500)
        #expect(try service.cart("bob").totalItems == 2)
    }

    @Test("an order export whose reader pauses longer than the idle-in-transaction limit still ends whole")
    func slowExportOutlivesIdleLimit() throws {
        let schema = try TestSchema()
        defer { try? schema.drop() }
        let service = CartService(repository: try schema.repository(Self.roomy))
        try service.addProduct(Self.apple)
        for cart in ["alice", "bob", "carol"] {
            try service.add("apple", to: cart)
            _ = try service.checkout(cart)
        }
        // The same store with sessions that may idle in a transaction for 300 ms, the
        // location's options overriding the repository's.
        let url = schema.url + "%20-c%20idle_in_transaction_session_timeout%3D300"
        let slow = CartService(repository: try PostgresCartRepository(url: url, options: Self.roomy))
        var exported: [String] = []
        try slow.forEachOrder(matching: OrderQuery(sort: .oldestFirst)) { order in
            Thread.sleep(forTimeInterval: 0.6)
            exported.append(order.cartID)
        }
        #expect(exported == ["alice", "bob", "carol"])
    }

    @Test("8 threads changing the settings at once all commit: none deadlocks on the settings lock")
    func concurrentSettingsChanges() throws {
        let schema = try TestSchema()
        defer { try? schema.drop() }
        _ = try schema.repository(Self.roomy)
        let errors = onThreads(8) { thread in
            let service = CartService(repository: try schema.repository())
            for round in 0..<10 { try service.updateSettings(maxLineQuantity: 100 + thread * 10 + round) }
        }
        #expect(errors.isEmpty, "\(errors)")
        let last = try CartService(repository: schema.repository()).settings().maxLineQuantity
        #expect((0..<8).map { 100 + $0 * 10 + 9 }.contains(last))
    }

    @Test("settings changed while other units update a product and add it to carts: every unit commits")
    func settingsBesideProductUnits() throws {
        let schema = try TestSchema()
        defer { try? schema.drop() }
        let setup = CartService(repository: try schema.repository(Self.roomy))
        try setup.addProduct(Product(sku: "apple", name: "Apple", price: Self.apple.price, stock: 10_000))
        let errors = onThreads(6) { thread in
            let service = CartService(repository: try schema.repository())
            for round in 0..<8 {
                switch thread {
                case 0: try service.updateSettings(maxLinesPerCart: 50 + round)
                case 1, 2: try service.updateProduct("apple", with: ProductUpdate(stockChange: 1))
                default: try service.add("apple", to: "cart-\(thread)")
                }
            }
        }
        #expect(errors.isEmpty, "\(errors)")
        #expect(try setup.product("apple").stock == 10_016)
        #expect(try setup.settings().maxLinesPerCart == 57)
    }

    @Test("a product deleted while other carts take lines of other products: neither side deadlocks or fails")
    func deleteProductBesideAdds() throws {
        let schema = try TestSchema()
        defer { try? schema.drop() }
        let setup = CartService(repository: try schema.repository(Self.roomy))
        for index in 0..<4 { try setup.addProduct(Product(sku: "p\(index)", name: "P", price: Self.apple.price)) }
        let errors = onThreads(5) { thread in
            let service = CartService(repository: try schema.repository())
            for round in 0..<12 {
                if thread == 0 {
                    try service.addProduct(Product(sku: "gone", name: "Gone", price: Self.apple.price))
                    try service.deleteProduct("gone")
                } else {
                    try service.add("p\(thread - 1)", to: "cart-\(thread)-\(round)")
                }
            }
        }
        #expect(errors.isEmpty, "\(errors)")
        #expect(try setup.counts().carts == 48)
        #expect(try setup.products().map(\.sku) == ["p0", "p1", "p2", "p3"])
    }

    @Test("a product a cart takes meanwhile is not deleted: the delete waits for the line, then refuses")
    func deleteProductRefusedForNewLine() throws {
        let schema = try TestSchema()
        defer { try? schema.drop() }
        let setup = CartService(repository: try schema.repository(Self.roomy))
        try setup.addProduct(Self.apple)
        let inserted = Atomic(false)
        let errors = onThreads(2) { thread in
            if thread == 0 {
                // A unit of another client that has added a line of the product and not yet committed.
                let holder = try PostgresConnection(schema.url)
                try holder.executeScript("""
                    BEGIN;
                    INSERT INTO carts (id, version, updated_at, line_count, next_position) VALUES ('late', 1, 0, 1, 2);
                    INSERT INTO cart_lines (cart_id, sku, quantity, position) VALUES ('late', 'apple', 1, 1)
                    """)
                inserted.store(true, ordering: .releasing)
                usleep(300_000)
                try holder.executeScript("COMMIT")
            } else {
                for _ in 0..<10_000 where !inserted.load(ordering: .acquiring) { usleep(1_000) }
                let ready = inserted.load(ordering: .acquiring)
                try #require(ready, "the other client's line was never inserted")
                #expect(throws: CartError.productInCarts(sku: "apple", carts: ["late"])) { try setup.deleteProduct("apple") }
            }
        }
        #expect(errors.isEmpty, "\(errors)")
        #expect(try setup.product("apple") == Self.apple)
    }
}
