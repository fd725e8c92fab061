import CartCore
import CartTestSupport
import CartSQLite
import Foundation

/// The child: edits carts and checks them out forever, printing one acknowledgement line per
/// committed unit, written straight to file descriptor 1 so that a line exists only if the
/// commit returned before it.
///
/// Lines: `add CART VERSION` after a committed add or remove, `order CART NUMBER KEY` after a
/// committed checkout. Each cart is checked out once and never touched again, so a cart with
/// an order must be empty.
struct TortureWorker {
    let path: String
    let seed: UInt64

    func run() throws {
        let service = CartService(repository: try SQLiteCartRepository(path: path, busyTimeout: .seconds(30)))
        var random = SplitMix64(seed: seed)
        let skus = try service.products().map(\.sku)
        guard !skus.isEmpty else { throw CartError.emptyCart("catalog") }
        var round = 0
        while true {
            round += 1
            let cart = "w\(seed)-\(round)"
            for _ in 0..<(1 + Int(random.next() % 4)) {
                let sku = skus[Int(random.next() % UInt64(skus.count))]
                do {
                    let update = try service.add(sku, quantity: 1 + Int(random.next() % 3), to: cart)
                    acknowledge("add \(cart) \(update.version)")
                } catch let error as CartError {
                    // Out of stock or capped: a refused add changes nothing, so nothing to acknowledge.
                    _ = error
                }
            }
            if random.next() % 4 == 0, let sku = try service.cart(cart).lines.first?.sku {
                let update = try service.remove(sku, from: cart)
                acknowledge("add \(cart) \(update.version)")
            }
            let key = "k-\(cart)"
            do {
                let result = try service.checkout(cart, idempotencyKey: key)
                acknowledge("order \(cart) \(result.order.number) \(key)")
            } catch let error as CartError {
                _ = error  // an empty cart or a line out of stock: nothing happened
            }
        }
    }

    private func acknowledge(_ line: String) {
        let bytes = Array((line + "\n").utf8)
        bytes.withUnsafeBytes { buffer in
            guard let base = buffer.baseAddress else { return }
            var offset = 0
            while offset < buffer.count {
                let written = write(1, base + offset, buffer.count - offset)
                if written <= 0 { exit(3) }  // the parent is gone
                offset += written
            }
        }
    }
}
