import CartCore
import CartTestSupport
import Testing
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One test case's store: a fresh repository of one backend, a hand-moved clock, and the
/// service over both.
struct Store {
    let backend: Backend
    let repository: any CartRepository
    let clock: TestClock
    let service: CartService
    /// Keeps a file backend's directory alive as long as the store.
    private let directory: TemporaryDirectory?

    /// A fresh store; with `seeded`, the catalog of `Catalog` is in it.
    init(_ backend: Backend, settings: StoreSettings = .defaults, seeded: Bool = true) throws {
        self.backend = backend
        (repository, directory) = try backend.makeRepository(settings: settings)
        clock = TestClock()
        let clock = clock
        service = CartService(repository: repository, clock: { clock.now })
        if seeded {
            for product in Catalog.products { try service.addProduct(product) }
        }
    }

    /// Everything the store holds, read in one snapshot, to compare before and after a change
    /// that must change nothing.
    func state() throws -> StoreState {
        try repository.read { storage in
            let carts = try storage.carts()
            var lines: [String: [StoredCartLine]] = [:]
            for cart in carts { lines[cart.id] = try storage.cartLines(cartID: cart.id) }
            var orders: [Order] = []
            try storage.forEachOrder(matching: OrderQuery(sort: .oldestFirst)) { orders.append($0) }
            return StoreState(
                settings: try storage.settings(), products: try storage.products(includeInactive: true),
                carts: carts, lines: lines, orders: orders, lastOrderNumber: try storage.lastOrderNumber())
        }
    }

    /// Expects `body` to fail with `error` and to leave the store exactly as it was.
    func expectRefusal(
        _ error: CartError, sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> some Any
    ) throws {
        let before = try state()
        #expect(throws: error, sourceLocation: sourceLocation) { try body() }
        #expect(try state() == before, "a refused change changes nothing", sourceLocation: sourceLocation)
    }

    /// The quantity of each line of the cart, by SKU.
    func quantities(_ cartID: String) throws -> [String: Int] {
        Dictionary(uniqueKeysWithValues: try service.cart(cartID).lines.map { ($0.sku, $0.quantity) })
    }

    /// The SKUs of the cart's lines, in cart order.
    func skus(_ cartID: String) throws -> [String] {
        try service.cart(cartID).lines.map(\.sku)
    }

    /// The tracked stock of a product.
    func stock(_ sku: String) throws -> Int? {
        try service.product(sku).stock
    }

    /// Fills `cartID` with `items` and checks it out, the clock moved on one second first.
    @discardableResult
    func placeOrder(_ cartID: String, _ items: [(String, Int)], key: String? = nil) throws -> Order {
        clock.advance(seconds: 1)
        for (sku, quantity) in items { try service.add(sku, quantity: quantity, to: cartID) }
        return try service.checkout(cartID, idempotencyKey: key).order
    }
}

/// Everything a store holds, comparable as a whole.
struct StoreState: Equatable {
    var settings: StoreSettings
    var products: [Product]
    var carts: [CartSummary]
    var lines: [String: [StoredCartLine]]
    var orders: [Order]
    var lastOrderNumber: OrderNumber
}

/// The catalog every seeded store starts with.
enum Catalog {
    /// $1.25, stock not tracked.
    static let apple = Product(sku: "apple", name: "Apple", price: usd(125))
    /// $0.99, 5 in stock.
    static let pear = Product(sku: "pear", name: "Pear", price: usd(99), stock: 5)
    /// $2.50, 10 in stock.
    static let plum = Product(sku: "plum", name: "Plum", price: usd(250), stock: 10)
    /// $3.00, not for sale.
    static let kiwi = Product(sku: "kiwi", name: "Kiwi", price: usd(300), isActive: false)

    static let products = [apple, pear, plum, kiwi]
}

/// An amount in US cents.
func usd(_ cents: Int64) -> Money {
    Money(minorUnits: cents, currency: .usd)
}
