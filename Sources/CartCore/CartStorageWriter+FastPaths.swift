#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// The default answers of the optional writes, built from the basics. A backend overrides one
/// where it can write in fewer steps and `cart-bench` shows the gain.
extension CartStorageWriter {
    public func insertAbsentProducts(_ products: [Product]) throws -> [Bool] {
        try products.map { product in
            guard try self.product(sku: product.sku) == nil else { return false }
            try insertProduct(product)
            return true
        }
    }

    public func insertOrders(_ orders: [Order]) throws {
        for order in orders { try insertOrder(order) }
    }

    public func updateProductStock(_ product: Product) throws {
        try updateProduct(product)
    }

    public func deleteCartLines(cartID: String, including skus: [String]) throws -> Int {
        try deleteCartLines(cartID: cartID)
    }

    /// Reads every cart and deletes those changed before `instant`, compared as
    /// `OrderQuery.placedMillisecondBounds` compares.
    public func deleteCarts(updatedBefore instant: Date) throws -> Int {
        let cutoff = UTCCalendar.ceilingMilliseconds(instant)
        let old = try carts().filter { UTCCalendar.milliseconds($0.updatedAt) < cutoff }
        for cart in old { try deleteCart(id: cart.id) }
        return old.count
    }
}
