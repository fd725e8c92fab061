import CartCore

extension CLIJSON {
    /// `cart db copy --json`: `{"copied":{"carts":4,"orders":2,"products":5},"from":"…","to":"…"}`,
    /// the locations with any password masked.
    struct Copied: Encodable {
        let copied: StoreCounts
        let from: String
        let to: String
    }
}
