import CartCore
@testable import CartHTTP
import CartTestSupport
import StrictJSON
import Testing

@Suite("Concurrent clients over real connections")
struct ConcurrencyTests {
    @Test("one checkout raced from 10 connections with one key places one order: one 201, nine replays")
    func racedCheckout() throws {
        let shop = try TestShop()
        let id = try shop.cart(with: [("apple", 3)])
        let statuses = Recorder<Int>()
        let numbers = Recorder<Int>()
        runOnThreads(10) { _ in
            guard let response = try? shop.send("POST", "/v1/carts/\(id)/checkout", headers: ["Idempotency-Key: one-click"]) else {
                return statuses.record(-1)
            }
            statuses.record(response.status)
            if let number = (try? response.json())?["order"]?["number"]?.int { numbers.record(number) }
        }
        #expect(statuses.all.sorted() == [200, 200, 200, 200, 200, 200, 200, 200, 200, 201])
        #expect(Set(numbers.all) == [1])
        #expect(try shop.service.counts().orders == 1)
    }

    @Test("8 connections adding 25 times each to one line end at 200")
    func concurrentAdds() throws {
        let settings = StoreSettings(currency: .usd, maxLineQuantity: 1000, maxLinesPerCart: 100)
        let shop = try TestShop(settings: settings)
        let id = try shop.mint()
        let failures = unexpectedAnswers(threads: 8, times: 25, expecting: 200) {
            try shop.send("POST", "/v1/carts/\(id)/items", json: #"{"sku":"apple"}"#)
        }
        #expect(failures == [])
        let cart = try shop.service.cart(id)
        #expect(cart.quantity(of: "apple") == 200)
        #expect(cart.version == 200)
    }

    @Test("deliveries sent as stockChange while carts check out keep every unit the checkouts took")
    func stockChangesDuringCheckouts() throws {
        let shop = try TestShop()
        let carts = try (0..<8).map { _ in try shop.cart(with: [("banana", 1)]) }
        try shop.service.updateProduct("banana", with: ProductUpdate(stock: .tracked(8)))
        let failures = Recorder<String>()
        runOnThreads(16) { index in
            do {
                let response =
                    index < 8
                    ? try shop.send("POST", "/v1/carts/\(carts[index])/checkout", headers: ["Idempotency-Key: k\(index)"])
                    : try shop.send("PATCH", "/v1/products/banana", json: #"{"stockChange":5}"#, admin: true)
                if response.status != (index < 8 ? 201 : 200) { failures.record("\(response.status) \(response.text)") }
            } catch {
                failures.record("\(error)")
            }
        }
        #expect(failures.all == [])
        #expect(try shop.service.product("banana").stock == 8 - 8 + 8 * 5)
        #expect(try shop.service.counts().orders == 8)
    }
}
