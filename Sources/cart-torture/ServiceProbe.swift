import CartCore
import CartSQLite
import Foundation

/// `cart-torture probe`: runs every service operation once against a database that another
/// client may have changed behind the service's back, and prints one line for each,
/// `NAME<TAB>ok[<TAB>DETAIL]` or `NAME<TAB>CATEGORY<TAB>DESCRIPTION`, then `done`. The details
/// are the cart's units, the journal mode `status` reports and how many problems `check` finds. A trap ends the process
/// on a signal before `done`, which is what the tests that run it look for. With
/// `--only reads` only the reads run, as a user who cannot write the file would run them;
/// `--busy-timeout-ms` sets the repository's busy timeout (10 s).
///
/// The operations name the rows of `StoredValueTests`' template store: products `apple`
/// (tracked stock), `banana` and `cherry` (inactive), carts `alice` and `bob`, orders 1 and 2.
struct ServiceProbe {
    let path: String
    let readsOnly: Bool
    let busyTimeout: Duration

    func run() {
        defer { print("done") }
        let repository: SQLiteCartRepository
        do {
            repository = try SQLiteCartRepository(path: path, busyTimeout: busyTimeout)
        } catch {
            report("open", error)
            return
        }
        let service = CartService(repository: repository)
        for (name, operation) in reads(service, repository) + (readsOnly ? [] : writes(service, repository)) {
            do {
                let detail = try operation() as? String
                print("\(name)\tok" + (detail.map { "\t" + $0 } ?? ""))
            } catch {
                report(name, error)
            }
        }
    }

    /// An operation by name; what it returns is printed after `ok` when it is text.
    private typealias Operation = (String, () throws -> Any)

    private func reads(_ service: CartService, _ repository: SQLiteCartRepository) -> [Operation] {
        let everything = OrderQuery(limit: 50)
        let filtered = OrderQuery(
            cartID: "alice", placedOnOrAfter: Date(timeIntervalSince1970: 0),
            placedBefore: Date(timeIntervalSince1970: 4_102_444_800), sku: "apple", sort: .oldestFirst, limit: 10)
        return [
            ("cart", { String(try service.cart("alice").totalItems) }),
            ("cart-never-written", { try service.cart("nobody") }),
            ("carts", { try service.listCarts() }),
            ("products", { try service.products(includeInactive: true) }),
            ("product", { try service.product("apple") }),
            ("settings", { try service.settings() }),
            ("counts", { try service.counts() }),
            ("orders", { try service.orders(matching: everything) }),
            ("orders-filtered", { try service.orders(matching: filtered) }),
            ("orders-next-page", { try service.orders(matching: OrderQuery(after: 2, limit: 1)) }),
            ("order", { try service.order(1) }),
            ("each-order", { try service.forEachOrder(matching: OrderQuery()) { _ in } }),
            ("stats-total", { try service.orderStats(groupedBy: .total) }),
            ("stats-day", { try service.orderStats(groupedBy: .day) }),
            ("stats-month", { try service.orderStats(groupedBy: .month) }),
            ("stats-product", { try service.orderStats(matching: filtered, groupedBy: .product) }),
            ("status", { try repository.status().details.first { $0.key == "journalMode" }?.value ?? "" }),
            ("check", { String(try repository.check().count) }),
            ("change-token", { try repository.changeToken() }),
        ]
    }

    private func writes(_ service: CartService, _ repository: SQLiteCartRepository) -> [Operation] {
        [
            ("add-to-line", { try service.add("apple", to: "alice") }),
            ("add-new-line", { try service.add("banana", quantity: 2, to: "bob") }),
            ("add-new-cart", { try service.add("apple", to: "carol") }),
            ("add-expected-version", { try service.add("apple", to: "alice", expectedVersion: 3) }),
            ("remove", { try service.remove("apple", from: "alice") }),
            ("set-quantity", { try service.setQuantity("apple", to: 3, in: "alice") }),
            ("delete-line", { try service.deleteLine("banana", from: "bob") }),
            ("merge", { try service.merge(from: "bob", into: "alice") }),
            ("clear", { try service.clear("carol") }),
            ("checkout", { try service.checkout("alice", idempotencyKey: "probe-key") }),
            ("checkout-replay", { try service.checkout("alice", idempotencyKey: "probe-key") }),
            ("checkout-other", { try service.checkout("bob") }),
            ("add-product", {
                try service.addProduct(
                    Product(sku: "durian", name: "Durian", price: Money(minorUnits: 700, currency: try service.settings().currency)))
            }),
            ("update-product", {
                try service.updateProduct(
                    "apple", with: ProductUpdate(price: Money(minorUnits: 120, currency: try service.settings().currency)))
            }),
            ("import", {
                let currency = try service.settings().currency
                return try service.importProducts([
                    Product(sku: "apple", name: "Apple", price: Money(minorUnits: 130, currency: currency), stock: 40),
                    Product(sku: "elderberry", name: "Elderberry", price: Money(minorUnits: 900, currency: currency)),
                ])
            }),
            ("update-settings", { try service.updateSettings(maxLineQuantity: 50) }),
            ("prune", { try service.prune(olderThan: Date(timeIntervalSince1970: 0)) }),
            ("migrate", { try repository.migrate() }),
        ]
    }

    private func report(_ name: String, _ error: any Error) {
        print("\(name)\t\(ErrorCategory(of: error))\t\(error)")
    }
}
