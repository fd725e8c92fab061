import CartCore
import Testing

/// One case's store: a fresh repository from the backend's factory, a hand-moved clock, and
/// the service over both.
struct Store {
    let repository: any CartRepository
    let clock: TestClock
    let service: CartService

    /// A fresh store; with `seeded`, the catalog of `Catalog` is in it.
    init(_ backend: Backend, settings: StoreSettings = .defaults, seeded: Bool = true) throws {
        repository = try backend.makeRepository(settings: settings)
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
        try repository.read { storage in try StoreState(storage) }
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
