/// `{"sku","name","quantity","unitPrice","lineTotal","currency"}` (`LineCoding`). Decoding
/// refuses a text whose `lineTotal` is not `unitPrice × quantity`, or whose quantity is below 1.
extension CartLine: Codable {
    public init(from decoder: any Decoder) throws {
        let line = try LineCoding.decode(from: decoder)
        try self.init(sku: line.sku, name: line.name, quantity: line.quantity, unitPrice: line.unitPrice)
    }

    public func encode(to encoder: any Encoder) throws {
        try LineCoding.encode(
            sku: sku, name: name, quantity: quantity, unitPrice: unitPrice, lineTotal: lineTotal, to: encoder)
    }
}
