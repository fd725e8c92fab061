import CartCore

extension CartReport {
    /// The cart's JSON exactly as encoding it with `CartJSON.encoder()` writes it (keys
    /// sorted), written directly: every cart response and event carries it.
    var json: [UInt8] {
        var out = JSONWriter(capacity: 192 + 160 * cart.lines.count)
        out.raw(#"{"cart":"#)
        out.string(cart.id)
        out.raw(#","currency":"#)
        out.string(cart.currency.code)
        out.raw(#","items":["#)
        for index in cart.lines.indices {
            let line = cart.lines[index]
            out.raw(index == 0 ? #"{"currency":"# : #",{"currency":"#)
            out.string(line.unitPrice.currency.code)
            out.raw(#","lineTotal":"#)
            out.amount(line.lineTotal)
            out.raw(#","name":"#)
            out.string(line.name)
            out.raw(#","quantity":"#)
            out.integer(line.quantity)
            out.raw(#","sku":"#)
            out.string(line.sku)
            out.raw(#","unitPrice":"#)
            out.amount(line.unitPrice)
            out.raw("}")
        }
        out.raw(#"],"problems":["#)
        for index in problems.indices {
            let problem = problems[index]
            out.raw(index == 0 ? #"{"code":"# : #",{"code":"#)
            out.string(problem.code.rawValue)
            out.raw(#","message":"#)
            out.string(problem.message)
            if let quantity = problem.quantity {
                out.raw(#","quantity":"#)
                out.integer(quantity)
            }
            out.raw(#","sku":"#)
            if let sku = problem.sku { out.string(sku) } else { out.raw("null") }
            out.raw("}")
        }
        out.raw(#"],"subtotal":"#)
        out.amount(cart.subtotal)
        out.raw(#","totalItems":"#)
        out.integer(cart.totalItems)
        out.raw(#","version":"#)
        out.integer(cart.version)
        out.raw("}")
        return out.bytes
    }
}
