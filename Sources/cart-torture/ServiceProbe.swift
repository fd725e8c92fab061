import CartCore
import CartSQLite
import Foundation

/// `cart-torture probe`: runs every service operation once against a database that another
/// client may have changed behind the service's back, and prints one line for each,
/// `NAME<TAB>ok` or `NAME<TAB>CATEGORY<TAB>DESCRIPTION`, then `done`. A trap ends the process
/// on a signal before `done`, which is what the tests that run it look for. With
/// `--only reads` only the reads run, as a user who cannot write the file would run them.
///
/// The operations name the rows of `StoredValueTests`' template store: products `apple`
/// (tracked stock), `banana` and `cherry` (inactive), carts `alice` and `bob`, orders 1 and 2.
struct ServiceProbe {
    let path: String
    let readsOnly: Bool

    func run() {
        defer { print("done") }
        let repository: SQLiteCartRepository
        do {
            repository = try SQLiteCartRepository(path: path, busyTimeout: .seconds(10))
        } catch {
            report("open", error)
            return
        }
        let service = CartService(repository: repository)
        for (name, operation) in reads(service, repository) + (readsOnly ? [] : writes(service, repository)) {
            do {
                try operation()
                print("\(name)\tok")
            } catch {
                report(name, error)
            }
        }
    }

    private typealias Operation = (String, () throws -> Void)

    private func reads(_ service: CartService, _ repository: SQLiteCartRepository) -> [Operation] {
        let everything = OrderQuery(limit: 50)
        let filtered = OrderQuery(
            cartID: "alice", placedOnOrAfter: Date(timeIntervalSince1970: 0),
            placedBefore: Date(timeIntervalSince1970: 4_102_444_800), sku: "apple", sort: .oldestFirst, limit: 10)
        return [
            ("cart", { _ = try service.cart("alice") }),
            ("cart-never-written", { _ = try service.cart("nobody") }),
            ("carts", { _ = try service.listCarts() }),
            ("products", { _ = try service.products(includeInactive: true) }),
            ("product", { _ = try service.product("apple") }),
            ("settings", { _ = try service.settings() }),
            ("counts", { _ = try service.counts() }),
            ("orders", { _ = try service.orders(matching: everything) }),
            ("orders-filtered", { _ = try service.orders(matching: filtered) }),
            ("orders-next-page", { _ = try service.orders(matching: OrderQuery(after: 2, limit: 1)) }),
            ("order", { _ = try service.order(1) }),
            ("each-order", { try service.forEachOrder(matching: OrderQuery()) { _ in } }),
            ("stats-total", { _ = try service.orderStats(groupedBy: .total) }),
            ("stats-day", { _ = try service.orderStats(groupedBy: .day) }),
            ("stats-month", { _ = try service.orderStats(groupedBy: .month) }),
            ("stats-product", { _ = try service.orderStats(matching: filtered, groupedBy: .product) }),
            ("status", { _ = try repository.status() }),
            ("check", { _ = try repository.check() }),
            ("change-token", { _ = try repository.changeToken() }),
        ]
    }

    private func writes(_ service: CartService, _ repository: SQLiteCartRepository) -> [Operation] {
        [
            ("add-to-line", { _ = try service.add("apple", to: "alice") }),
            ("add-new-line", { _ = try service.add("banana", quantity: 2, to: "bob") }),
            ("add-new-cart", { _ = try service.add("apple", to: "carol") }),
            ("add-expected-version", { _ = try service.add("apple", to: "alice", expectedVersion: 3) }),
            ("remove", { _ = try service.remove("apple", from: "alice") }),
            ("set-quantity", { _ = try service.setQuantity("apple", to: 3, in: "alice") }),
            ("delete-line", { _ = try service.deleteLine("banana", from: "bob") }),
            ("merge", { _ = try service.merge(from: "bob", into: "alice") }),
            ("clear", { _ = try service.clear("carol") }),
            ("checkout", { _ = try service.checkout("alice", idempotencyKey: "probe-key") }),
            ("checkout-replay", { _ = try service.checkout("alice", idempotencyKey: "probe-key") }),
            ("checkout-other", { _ = try service.checkout("bob") }),
            ("add-product", {
                _ = try service.addProduct(
                    Product(sku: "durian", name: "Durian", price: Money(minorUnits: 700, currency: try service.settings().currency)))
            }),
            ("update-product", {
                _ = try service.updateProduct(
                    "apple", with: ProductUpdate(price: Money(minorUnits: 120, currency: try service.settings().currency)))
            }),
            ("import", {
                let currency = try service.settings().currency
                _ = try service.importProducts([
                    Product(sku: "apple", name: "Apple", price: Money(minorUnits: 130, currency: currency), stock: 40),
                    Product(sku: "elderberry", name: "Elderberry", price: Money(minorUnits: 900, currency: currency)),
                ])
            }),
            ("update-settings", { _ = try service.updateSettings(maxLineQuantity: 50) }),
            ("prune", { _ = try service.prune(olderThan: Date(timeIntervalSince1970: 0)) }),
            ("migrate", { _ = try repository.migrate() }),
        ]
    }

    private func report(_ name: String, _ error: any Error) {
        print("\(name)\t\(ErrorCategory(of: error))\t\(error)")
    }
}
