import CartCore
import CartTestSupport
import CartSQLite
import Foundation

/// The parent: starts a `TortureWorker`, kills it with SIGKILL after a random delay, and
/// checks the file after every kill. Any broken invariant stops the run with an error.
struct TortureRun {
    let path: String
    let kills: Int
    let seed: UInt64
    let maxDelayMilliseconds: Int

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    func run() throws -> String {
        let service = CartService(repository: try SQLiteCartRepository(path: path, busyTimeout: .seconds(30)))
        if try service.products(includeInactive: true).isEmpty {
            let currency = try service.settings().currency
            // A third untracked, a third plentiful, a third scarce so that checkouts also fail on stock.
            let stocks: [Int?] = [nil, 50_000, 40]
            var catalog: [Product] = []
            for index in 0..<12 {
                let price = Money(minorUnits: Int64(99 + index * 250), currency: currency)
                catalog.append(Product(sku: "t\(index)", name: "Torture \(index)", price: price, stock: stocks[index % 3]))
            }
            try service.importProducts(catalog)
        }
        let initialStock = try stockBySKU(service)
        var random = SplitMix64(seed: seed)
        var acknowledged = 0
        for kill in 0..<kills {
            let childSeed = seed &+ UInt64(kill) &* 1_000_003
            let acks = try killWorker(seed: childSeed, afterMilliseconds: 5 + Int(random.next() % UInt64(maxDelayMilliseconds + 1)))
            acknowledged += acks.count
            do {
                try verify(service, acknowledgements: acks)
                try verifyStock(service, initial: initialStock, now: try stockBySKU(service))
            } catch {
                throw Failure(description: "after kill \(kill + 1) (worker seed \(childSeed)): \(error)")
            }
        }
        // A worker that never commits would make every check pass without testing anything.
        guard acknowledged > 0 else { throw Failure(description: "the workers acknowledged no commit in \(kills) runs") }
        let orders = try service.orderStats(groupedBy: .total).first?.orders ?? 0
        return "\(kills) kills, \(acknowledged) acknowledged commits, \(orders) orders: every invariant held after every kill"
    }

    /// Starts a worker, waits, kills it with SIGKILL, and returns the lines it acknowledged.
    ///
    /// - Throws: `Failure` when the worker ended on its own before the kill (it loops
    ///   forever, so it failed), with what it wrote on stderr.
    private func killWorker(seed: UInt64, afterMilliseconds delay: Int) throws -> [Substring] {
        let worker = Process()
        worker.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
        worker.arguments = ["worker", "--db", path, "--seed", String(seed)]
        let output = Pipe()
        let errors = Pipe()
        worker.standardOutput = output
        worker.standardError = errors
        try worker.run()
        usleep(UInt32(delay) * 1000)
        kill(worker.processIdentifier, SIGKILL)
        let data = output.fileHandleForReading.readDataToEndOfFile()
        let message = errors.fileHandleForReading.readDataToEndOfFile()
        worker.waitUntilExit()
        guard worker.terminationReason == .uncaughtSignal, worker.terminationStatus == SIGKILL else {
            throw Failure(
                description: "the worker (seed \(seed)) exited with status \(worker.terminationStatus) before the kill: "
                    + String(decoding: message, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
        }
        let text = String(decoding: data, as: UTF8.self)
        // A line cut by the kill has no newline: it was never fully acknowledged.
        let complete = text.hasSuffix("\n") ? text : String(text[..<(text.lastIndex(of: "\n") ?? text.startIndex)])
        return complete.split(separator: "\n")
    }

    private func stockBySKU(_ service: CartService) throws -> [String: Int] {
        var stock: [String: Int] = [:]
        for product in try service.products(includeInactive: true) { stock[product.sku] = product.stock }
        return stock
    }

    /// The invariants that must hold after any kill.
    private func verify(_ service: CartService, acknowledgements: [Substring]) throws {
        guard let repository = service.repository as? SQLiteCartRepository else { return }
        let problems = try repository.check()
        guard problems.isEmpty else { throw Failure(description: "integrity check: \(problems)") }

        var expectedNumber: Int64 = 1
        var cartsWithOrders: Set<String> = []
        try service.forEachOrder(matching: OrderQuery(sort: .oldestFirst)) { order in
            guard order.number.rawValue == expectedNumber else {
                throw Failure(description: "order numbers have a gap: expected \(expectedNumber), found \(order.number)")
            }
            expectedNumber += 1
            guard !order.lines.isEmpty else { throw Failure(description: "order \(order.number) has no lines") }
            var total = Money.zero(order.currency)
            var items = 0
            for line in order.lines {
                guard try line.unitPrice.multiplied(by: line.quantity) == line.lineTotal else {
                    throw Failure(description: "order \(order.number) line \(line.sku): total is not price × quantity")
                }
                total = try total.adding(line.lineTotal)
                items += line.quantity
            }
            guard total == order.total, items == order.totalItems else {
                throw Failure(description: "order \(order.number): total or item count differs from its lines")
            }
            cartsWithOrders.insert(order.cartID)
        }
        for cartID in cartsWithOrders {
            let cart = try service.cart(cartID)
            guard cart.isEmpty else { throw Failure(description: "cart \(cartID) has an order but still holds lines") }
        }
        for line in acknowledgements {
            let fields = line.split(separator: " ").map(String.init)
            switch (fields.first, fields.count) {
            case ("add", 3):
                let version = try service.cart(fields[1]).version
                guard let acked = Int(fields[2]), version >= acked else {
                    throw Failure(description: "acknowledged \(line) but the cart is at version \(version)")
                }
            case ("order", 4):
                guard let number = Int64(fields[2]) else { throw Failure(description: "bad acknowledgement \(line)") }
                let order = try service.order(OrderNumber(rawValue: number))
                guard order.cartID == fields[1], order.idempotencyKey == fields[3] else {
                    throw Failure(description: "acknowledged \(line) but order \(number) is another cart's")
                }
            default:
                throw Failure(description: "bad acknowledgement '\(line)'")
            }
        }
    }

    /// Tracked stock only moves by checkouts: what is left plus what orders took is what there was.
    private func verifyStock(_ service: CartService, initial: [String: Int], now: [String: Int]) throws {
        var sold: [String: Int] = [:]
        try service.forEachOrder(matching: OrderQuery()) { order in
            for line in order.lines { sold[line.sku, default: 0] += line.quantity }
        }
        for (sku, before) in initial {
            let after = now[sku] ?? 0
            guard before == after + sold[sku, default: 0] else {
                throw Failure(description: "stock of \(sku): \(before) before, \(after) now, \(sold[sku, default: 0]) sold")
            }
        }
    }
}
