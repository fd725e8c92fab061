// libFuzzer entry point for the HTTP API: each input is one request, answered by CartAPI over
// an in-memory store and over an in-memory SQLite database; built by scripts/fuzz.sh against
// CartHTTP and HTTPServer compiled with -enable-testing. Any crash, trap or sanitizer report is
// a bug.
//
// An input is the method, the target and header lines (`Name: value`), each on a line of its
// own, then an empty line and the body. In the target, the header values and the body,
// `@CART` stands for a cart ID this API minted and `@TOKEN` for its admin token, so that
// inputs reach the storefront's and the admin's routes. A header value that holds a control
// character is left out of the run, as the server answers 400 before the API sees it.
//
// Properties checked on every input, for each store: the answer's status is 200 to 599 and its
// header fields are ones the server can send; an answer of 400 or more leaves the store as it
// was. Both stores get every request, so they hold the same carts and products (under other
// minted IDs), and their answers have the same status.

import CartCore
import CartHTTP
import CartInMemory
import CartSQLite
@testable import HTTPServer

/// An API and its store, made once for the whole run: inputs add to the same store, within
/// the caps its settings set.
final class Fixture: Sendable {
    static let adminToken = "fuzz-admin-token-0123456789abcdef"

    let service: CartService
    let api: CartAPI
    let cartID: String

    init(_ repository: any CartRepository) {
        do {
            let usd = { (cents: Int64) in Money(minorUnits: cents, currency: .usd) }
            service = CartService(repository: repository)
            try service.updateSettings(maxLineQuantity: 20, maxLinesPerCart: 4)
            try service.importProducts([
                Product(sku: "apple", name: "Apple", price: usd(125), stock: 50),
                Product(sku: "banana", name: "Banana", price: usd(99)),
                Product(sku: "pear", name: "Pear", price: usd(80), isActive: false),
                Product(sku: "a/b", name: "Slash", price: usd(1)),
            ])
            let key = try CartIDKey(bytes: Array(repeating: 7, count: CartIDKey.minimumLength))
            api = try CartAPI(
                service: service,
                configuration: CartHTTPConfiguration(adminToken: Self.adminToken, cartIDKey: key, storeKind: "memory"))
            cartID = api.minter.mint()
            try service.add("apple", quantity: 2, to: cartID)
        } catch {
            fatalError("the fuzz fixture could not be made: \(error)")
        }
    }

    /// Everything a refused request must leave as it was.
    struct Snapshot: Equatable {
        let settings: StoreSettings
        let products: [Product]
        let carts: [CartSummary]
        let counts: StoreCounts
    }

    func snapshot() throws -> Snapshot {
        Snapshot(
            settings: try service.settings(), products: try service.products(includeInactive: true),
            carts: try service.listCarts(), counts: try service.counts())
    }

    /// `bytes` with `@CART` and `@TOKEN` replaced.
    func substituted(_ bytes: ArraySlice<UInt8>) -> [UInt8] {
        let cart = Array("@CART".utf8)
        let token = Array("@TOKEN".utf8)
        var out: [UInt8] = []
        var index = bytes.startIndex
        while index < bytes.endIndex {
            if bytes[index...].starts(with: cart) {
                out += cartID.utf8
                index += cart.count
            } else if bytes[index...].starts(with: token) {
                out += Self.adminToken.utf8
                index += token.count
            } else {
                out.append(bytes[index])
                index += 1
            }
        }
        return out
    }

    /// The request `bytes` describe, or nil for one the server refuses before the API sees it.
    func request(from bytes: [UInt8]) -> HTTPRequest? {
        var lines: [ArraySlice<UInt8>] = []
        var rest = bytes[...]
        // The method, the target, then header lines up to the empty line.
        while let end = rest.firstIndex(of: UInt8(ascii: "\n")) {
            let line = rest[..<end]
            rest = rest[(end + 1)...]
            if line.isEmpty && lines.count >= 2 { break }
            lines.append(line)
        }
        guard lines.count >= 2 else { return nil }
        var fields: [(name: String, value: String)] = []
        for line in lines.dropFirst(2) {
            let colon = line.firstIndex(of: UInt8(ascii: ":")) ?? line.endIndex
            let value = substituted(line[colon...].dropFirst().drop { $0 == UInt8(ascii: " ") })
            if value.contains(where: { ($0 < 0x20 && $0 != 0x09) || $0 == 0x7F }) { return nil }
            fields.append((name: String(decoding: line[..<colon], as: UTF8.self), value: String(decoding: value, as: UTF8.self)))
        }
        return HTTPRequest(
            method: String(decoding: lines[0], as: UTF8.self), rawTarget: substituted(lines[1]), version: "HTTP/1.1",
            headers: HTTPHeaders(fields), body: substituted(rest), remoteAddress: "127.0.0.1")
    }
}

let fixtures: [Fixture] = {
    do {
        return [Fixture(InMemoryCartRepository()), Fixture(try SQLiteCartRepository.inMemory())]
    } catch {
        fatalError("the in-memory SQLite database could not be made: \(error)")
    }
}()

/// Answers the request `bytes` describe with `fixture`'s API and checks the answer; the
/// status, or nil when the server would refuse the request before the API.
func answer(_ bytes: [UInt8], with fixture: Fixture) -> Int? {
    guard let request = fixture.request(from: bytes) else { return nil }
    let before = try? fixture.snapshot()
    let response = fixture.api.respond(to: request)
    // An event stream would stay open and watched for the rest of the run.
    if case .stream(let stream) = response.body { stream.close() }
    precondition((200...599).contains(response.status), "status \(response.status) for \(request.method) \(request.target)")
    for (name, value) in response.headers {
        precondition(HTTPHeaders.isFieldName(name), "header name \(name.debugDescription)")
        precondition(
            !value.isEmpty && !value.utf8.contains { ($0 < 0x20 && $0 != 0x09) || $0 == 0x7F },
            "header \(name): \(value.debugDescription)")
    }
    if response.status >= 400 {
        precondition(
            (try? fixture.snapshot()) == before,
            "\(request.method) \(request.target) answered \(response.status) and changed the store")
    }
    return response.status
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHTTPRequests(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let statuses = fixtures.map { answer(bytes, with: $0) }
    precondition(statuses.dropFirst().allSatisfy { $0 == statuses[0] }, "the stores answered \(statuses)")
    return 0
}
