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
}
