import CartCore

/// The documented `--json` shapes. Money is always a decimal string in the store currency,
/// never a float; the README lists these shapes and the end-to-end tests pin them.
extension JSONValue {
    /// `{"sku","name","price","active","stock"}`, `stock` an integer or `null` when untracked.
    static func product(_ product: Product) -> JSONValue {
        .object([
            ("sku", .string(product.sku)), ("name", .string(product.name)),
            ("price", .string(product.price.decimalString)), ("active", .bool(product.isActive)),
            ("stock", .int(product.stock)),
        ])
    }

    /// `{"cart","version","currency","items":[…],"totalItems","subtotal"}`.
    static func cart(_ cart: Cart) -> JSONValue {
        .object([
            ("cart", .string(cart.id)), ("version", .int(cart.version)), ("currency", .string(cart.currency.code)),
            (
                "items",
                .array(
                    cart.lines.map {
                        line(sku: $0.sku, name: $0.name, quantity: $0.quantity, unit: $0.unitPrice, total: $0.lineTotal)
                    })
            ),
            ("totalItems", .int(cart.totalItems)), ("subtotal", .string(cart.subtotal.decimalString)),
        ])
    }

    /// `{"number","cart","placedAt","currency","totalItems","total","lines":[…]}`.
    static func order(_ order: Order) -> JSONValue {
        .object([
            ("number", .number(order.number.description)), ("cart", .string(order.cartID)),
            ("placedAt", .string(UTCCalendar.iso8601(order.placedAt))), ("currency", .string(order.currency.code)),
            ("totalItems", .int(order.totalItems)), ("total", .string(order.total.decimalString)),
            (
                "lines",
                .array(
                    order.lines.map {
                        line(sku: $0.sku, name: $0.name, quantity: $0.quantity, unit: $0.unitPrice, total: $0.lineTotal)
                    })
            ),
        ])
    }

    /// `{"order","cart","total","currency","totalItems","replayed"}`.
    static func checkout(_ result: CheckoutResult) -> JSONValue {
        let order = result.order
        return .object([
            ("order", .number(order.number.description)), ("cart", .string(order.cartID)),
            ("total", .string(order.total.decimalString)), ("currency", .string(order.currency.code)),
            ("totalItems", .int(order.totalItems)), ("replayed", .bool(result.replayed)),
        ])
    }

    /// `{"orders":[ORDER…],"next":NUMBER_OR_NULL}`.
    static func orderPage(_ page: OrderPage) -> JSONValue {
        .object([
            ("orders", .array(page.orders.map(order))),
            ("next", page.next.map { .number($0.description) } ?? .null),
        ])
    }

    private static func line(sku: String, name: String, quantity: Int, unit: Money, total: Money) -> JSONValue {
        .object([
            ("sku", .string(sku)), ("name", .string(name)), ("quantity", .int(quantity)),
            ("unitPrice", .string(unit.decimalString)), ("lineTotal", .string(total.decimalString)),
        ])
    }
}
