/// `{"sku","name","quantity","unitPrice","lineTotal","currency"}` (`LineCoding`), the prices as
/// they were at checkout. Decoding refuses a text whose `lineTotal` is not `unitPrice ×
/// quantity`, or whose quantity is below 1.
extension OrderLine: Codable {
    public init(from decoder: any Decoder) throws {
        let line = try LineCoding.decode(from: decoder)
        self.init(
            sku: line.sku, name: line.name, unitPrice: line.unitPrice, quantity: line.quantity, lineTotal: line.lineTotal)
    }

    public func encode(to encoder: any Encoder) throws {
        try LineCoding.encode(
            sku: sku, name: name, quantity: quantity, unitPrice: unitPrice, lineTotal: lineTotal, to: encoder)
    }
}
