/// Counted nouns for messages: `1 cart`, `3 carts`.
enum Plural {
    /// The count and the noun, with an `s` unless the count is one.
    static func count(_ count: Int, _ noun: String) -> String {
        "\(count) \(noun)\(count == 1 ? "" : "s")"
    }
}
