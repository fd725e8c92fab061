import CartCore
import Foundation
import CartInMemory
import Testing

/// A store with one product, "apple", over the in-memory backend.
private func service() throws -> CartService {
    let service = CartService(repository: InMemoryCartRepository())
    try service.addProduct(Product(sku: "apple", name: "Apple", price: usd(125)))
    return service
}

private func product(sku: String = "fig", name: String = "Fig") -> Product {
    Product(sku: sku, name: name, price: usd(100))
}

@Suite("Validating SKUs, names, cart IDs and keys")
struct ValidationTests {
    @Test(
        "SKUs are trimmed of Unicode white space",
        arguments: [("fig", "fig"), ("  fig  ", "fig"), ("\u{A0}fig\u{3000}", "fig"), ("\tfig\r\n", "fig"), ("f i g", "f i g")])
    func skuTrimmed(_ raw: String, _ stored: String) throws {
        let service = try service()
        #expect(try service.addProduct(product(sku: raw)).sku == stored)
        #expect(try service.product(raw).sku == stored, "lookups trim the same way")
    }

    @Test("a SKU of 64 characters is accepted and 65 are refused")
    func skuLength() throws {
        let service = try service()
        for sku in [String(repeating: "x", count: 64), String(repeating: "a b", count: 21) + "c"] {
            #expect(try service.addProduct(product(sku: sku)).sku == sku)
        }
        for sku in [String(repeating: "x", count: 65), String(repeating: "ab", count: 33)] {
            #expect(throws: CartError.invalidSKU(sku, reason: "it is longer than 64 characters")) {
                try service.addProduct(product(sku: sku))
            }
        }
    }

    @Test("SKUs that are empty or hold control characters are refused", arguments: ["", " ", "\u{3000}", "f\tg", "f\ng", "f\u{7F}g", "f\u{2028}g", "f\u{0}g", "\u{1B}[31m"])
    func skuRefused(_ sku: String) throws {
        let service = try service()
        let empty = sku.allSatisfy(\.isWhitespace)
        let error = CartError.invalidSKU(sku, reason: empty ? "it is empty" : "it contains control characters")
        #expect(throws: error) { try service.addProduct(product(sku: sku)) }
        #expect(throws: error) { try service.add(sku, to: "alice") }
        #expect(throws: error) { try service.product(sku) }
        #expect(try service.products(includeInactive: true).count == 1)
    }

    @Test("names are trimmed, 1 to 200 characters, without control, bidirectional override or noncharacters; a new one shows something")
    func names() throws {
        let service = try service()
        #expect(throws: CartError.invalidName("abc\u{202E}lve", reason: "it contains bidirectional control characters")) {
            try service.addProduct(product(name: "abc\u{202E}lve"))
        }
        #expect(try service.addProduct(product(sku: "a", name: "  Fig jam ")).name == "Fig jam")
        #expect(try service.addProduct(product(sku: "b", name: String(repeating: "名", count: 200))).name.count == 200)
        let long = String(repeating: "n", count: 201)
        #expect(throws: CartError.invalidName(long, reason: "it is longer than 200 characters")) {
            try service.addProduct(product(name: long))
        }
        #expect(throws: CartError.invalidName(" \n ", reason: "it is empty")) { try service.addProduct(product(name: " \n ")) }
        #expect(throws: CartError.invalidName("Fig\u{0}", reason: "it contains control characters")) {
            try service.addProduct(product(name: "Fig\u{0}"))
        }
        #expect(throws: CartError.invalidName("", reason: "it is empty")) {
            try service.updateProduct("apple", with: ProductUpdate(name: ""))
        }
        // Zero-width characters alone (a space, a joiner, a byte order mark, a Hangul filler),
        // or with blanks between them (no-break spaces, the blank Braille pattern), would show
        // as nothing; beside visible ones they stay, as in "👩‍🍳".
        for invisible in [
            "\u{200B}", "\u{200B}\u{2060}\u{FEFF}", "\u{3164}", " \u{00AD} ", "\u{2800}", "\u{200B}\u{00A0}\u{200B}",
            "\u{2800}\u{3000}\u{2800}",
        ] {
            #expect(throws: CartError.invalidName(invisible, reason: "it has no visible characters")) {
                try service.updateProduct("apple", with: ProductUpdate(name: invisible))
            }
        }
        // Noncharacters are for a program's own use, never for text, in any plane.
        func scalar(_ value: UInt32) -> String { String(Unicode.Scalar(value)!) }
        for name in ["Fig" + scalar(0xFDD0), scalar(0xFFFE) + "Fig", "Fig " + scalar(0x10FFFF), scalar(0xFDEF)] {
            #expect(throws: CartError.invalidName(name, reason: "it contains noncharacters")) {
                try service.addProduct(product(sku: "n", name: name))
            }
        }
        #expect(try service.addProduct(product(sku: "braille", name: "Braille \u{2800}\u{2801}")).name == "Braille \u{2800}\u{2801}")
        // A name an earlier version let in stays through an update that does not give one.
        for (sku, name) in [("blank", "\u{2800}"), ("gift", "Gift" + scalar(0xFDD0)), ("zero", "\u{200B}")] {
            try service.repository.write { storage in try storage.insertProduct(product(sku: sku, name: name)) }
            #expect(try service.updateProduct(sku, with: ProductUpdate(price: usd(5))).name == name)
            #expect(throws: CartError.self) { try service.updateProduct(sku, with: ProductUpdate(name: name)) }
            #expect(Product.newNameProblem(name) != nil)
        }
        #expect(try service.addProduct(product(sku: "c", name: "Chef 👩\u{200D}🍳")).name == "Chef 👩\u{200D}🍳")
        #expect(try service.product("apple").name == "Apple")
    }

    @Test("a new product cannot be called . or .., which URLs resolve away; one stored before is still found and deleted")
    func dotSKUs() throws {
        let service = try service()
        for (sku, trimmed) in [(".", "."), ("..", ".."), (" .. ", "..")] {
            let error = CartError.invalidSKU(sku, reason: "'.' and '..' cannot be part of a URL")
            #expect(throws: error) { try service.addProduct(product(sku: sku)) }
            #expect(throws: CartError.invalidImportItem(index: 0, reason: error)) { try service.importProducts([product(sku: sku)]) }
            #expect(throws: CartError.unknownProduct(trimmed)) { try service.product(sku) }
        }
        #expect(try service.addProduct(product(sku: "...")).sku == "...")
        #expect(try service.products(includeInactive: true).count == 2)
    }

    @Test("cart IDs are taken as given: no surrounding space, 1 to 128 characters, no control characters")
    func cartIDs() throws {
        let service = try service()
        let longest = String(repeating: "c", count: 128)
        try service.add("apple", to: longest)
        try service.add("apple", to: "anon:7f3e 9b")
        #expect(try service.listCarts().map(\.id) == ["anon:7f3e 9b", longest])
        let cases: [(String, String)] = [
            ("", "it is empty"), (" alice", "it has leading or trailing space"),
            ("alice\u{A0}", "use printable ASCII characters only"), ("alice ", "it has leading or trailing space"),
            (String(repeating: "c", count: 129), "it is longer than 128 characters"),
            ("al\u{0}ice", "it contains control characters"),
        ]
        for (id, reason) in cases {
            #expect(throws: CartError.invalidCartID(id, reason: reason)) { try service.add("apple", to: id) }
            #expect(throws: CartError.invalidCartID(id, reason: reason)) { try service.cart(id) }
            #expect(throws: CartError.invalidCartID(id, reason: reason)) { try service.checkout(id) }
            #expect(throws: CartError.invalidCartID(id, reason: reason)) {
                try service.orders(matching: OrderQuery(cartID: id))
            }
        }
    }

    @Test("a new cart cannot be called . or .., which URLs resolve away; one another client stored is still used")
    func dotCartIDs() throws {
        let repository = InMemoryCartRepository()
        let service = CartService(repository: repository)
        try service.addProduct(Product(sku: "apple", name: "Apple", price: usd(125)))
        try service.add("apple", to: "alice")
        for id in [".", ".."] {
            let error = CartError.invalidCartID(id, reason: "'.' and '..' cannot be part of a URL")
            #expect(throws: error) { try service.add("apple", to: id) }
            #expect(throws: error) { try service.setQuantity("apple", to: 2, in: id) }
            #expect(throws: error) { try service.merge(from: "alice", into: id) }
            #expect(try service.cart(id).lines.isEmpty)
        }
        #expect(try service.listCarts().map(\.id) == ["alice"])
        #expect(try service.cart("alice").totalItems == 1, "the refused merge left the source as it was")
        #expect(try service.add("apple", to: "...").quantity == 1)

        // Written by another client straight into the store.
        try repository.write { storage in
            try storage.saveCartHeader(
                CartHeader(id: "..", version: 1, updatedAt: Date(timeIntervalSince1970: 0), lineCount: 1, nextLinePosition: 1),
                previousVersion: nil)
            try storage.insertCartLine(cartID: "..", sku: "apple", quantity: 1, position: 0)
        }
        #expect(try service.add("apple", to: "..").quantity == 2)
        #expect(try service.checkout("..").order.totalItems == 2)
    }

    @Test("idempotency keys are 1 to 128 characters without control characters")
    func idempotencyKeys() throws {
        let service = try service()
        try service.add("apple", to: "alice")
        let cases: [(String, String)] = [
            ("", "it is empty"), (String(repeating: "k", count: 129), "it is longer than 128 characters"),
            ("k\n", "it contains control characters"), ("   ", "it has leading or trailing space"),
            (" k", "it has leading or trailing space"),
        ]
        for (key, reason) in cases {
            #expect(throws: CartError.invalidIdempotencyKey(key, reason: reason)) {
                try service.checkout("alice", idempotencyKey: key)
            }
        }
        #expect(try service.cart("alice").totalItems == 1)
        let longest = String(repeating: "k", count: 128)
        #expect(try service.checkout("alice", idempotencyKey: longest).order.idempotencyKey == longest)
    }
}

@Suite("Error descriptions")
struct ErrorDescriptionTests {
    static let errors: [CartError] = [
        .invalidQuantity(given: 0, range: 1...99), .invalidQuantity(given: 0, range: 1...Int.max),
        .invalidAmount("1e3", reason: "r"), .unknownCurrency("XXX"), .currencyMismatch("USD", "EUR"),
        .currencyLocked(current: "USD", requested: "EUR"), .amountOverflow, .invalidSKU("a\nb", reason: "r"),
        .invalidName("n", reason: "r"), .invalidCartID("c", reason: "r"), .invalidIdempotencyKey("k", reason: "r"),
        .invalidSetting(name: "Maximum line quantity", value: 0, range: 1...5), .invalidStock(-1),
        .unknownProduct("x"), .inactiveProduct("x"), .productExists("x"),
        .lineQuantityCapExceeded(sku: "x", requested: 100, cap: 99), .lineCountCapExceeded(cart: "c", cap: 100),
        .insufficientStock(sku: "x", requested: 6, available: 5), .notInCart(sku: "x", cart: "c"),
        .versionConflict(cart: "c", expected: 1, actual: 2), .emptyCart("c"),
        .idempotencyKeyReused(key: "k", cart: "c"), .orderNotFound(7), .mergeIntoSelf("c"),
        .invalidImportItem(index: 2, reason: .invalidStock(-1)), .duplicateImportSKU("x", firstIndex: 0, index: 3),
        .invalidLimit(0),
    ]

    @Test("every error reads as one human line", arguments: errors)
    func oneLine(_ error: CartError) {
        let text = error.description
        #expect(!text.isEmpty)
        #expect(!text.contains("\n"))
        #expect(text.first?.isUppercase == true || text.first == "'")
    }

    @Test("descriptions give the numbers that matter")
    func specifics() {
        #expect(CartError.invalidQuantity(given: 0, range: 1...99).description == "Quantity must be between 1 and 99; got 0.")
        #expect(CartError.invalidQuantity(given: -2, range: 1...Int.max).description == "Quantity must be at least 1; got -2.")
        #expect(
            CartError.insufficientStock(sku: "pear", requested: 6, available: 5).description
                == "Insufficient stock for 'pear': the line would hold 6 of the 5 in stock.")
        #expect(CartError.invalidImportItem(index: 2, reason: .invalidStock(-1)).description == "Item 3: Stock must be zero or more; got -1.")
        #expect(CartError.invalidSKU("a\nb", reason: "r").description == "Invalid SKU 'a\\nb': r.")
        #expect(
            CartError.invalidName("Fig" + String(Unicode.Scalar(0xFDD0)!), reason: "r").description
                == "Invalid product name 'Fig\\u{FDD0}': r.")
        #expect(CartError.unknownProduct(String(repeating: "x", count: 100)).description.contains("x…'"))
    }
}
