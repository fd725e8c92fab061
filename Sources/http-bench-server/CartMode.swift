import CartCore
import CartHTTP
import CartSQLite
import Glibc

/// `http-bench-server --cart DB …`: the cart API on a SQLite file, for wrk and schemathesis
/// until `cart serve` exists.
enum CartMode {
    /// What the command line asked for.
    struct Options {
        var database = ""
        var port: UInt16 = 8080
        var threads = 4
        var readers = 0
        var adminToken: String?
        var seed = false
        var accessLog = false
        var mintCount = 0
        var mintFile = ""
    }

    static let usage = """
        usage: http-bench-server --cart DB [--port P] [--threads N] [--readers N] [--admin-token T]
                                 [--seed] [--mint N FILE] [--access-log]
        """

    /// Reads the options after `--cart`; nil, having said why on stderr, when they are wrong.
    static func options(_ arguments: ArraySlice<String>) -> Options? {
        var options = Options()
        var rest = arguments.makeIterator()
        guard let database = rest.next() else { return nil }
        options.database = database
        while let argument = rest.next() {
            switch argument {
            case "--port": guard let value = rest.next().flatMap(UInt16.init) else { return nil }; options.port = value
            case "--threads": guard let value = rest.next().flatMap(Int.init) else { return nil }; options.threads = value
            case "--readers": guard let value = rest.next().flatMap(Int.init) else { return nil }; options.readers = value
            case "--admin-token": guard let value = rest.next() else { return nil }; options.adminToken = value
            case "--seed": options.seed = true
            case "--access-log": options.accessLog = true
            case "--mint":
                guard let count = rest.next().flatMap(Int.init), let file = rest.next() else { return nil }
                options.mintCount = count
                options.mintFile = file
            default: return nil
            }
        }
        return options
    }

    /// Starts the server; the caller prints its URL and stops it.
    ///
    /// - Throws: the store's, the key file's or the server's error.
    static func start(_ options: Options) throws -> CartHTTPServer {
        let service = CartService(repository: try SQLiteCartRepository(path: options.database, readers: options.readers))
        if options.seed { try seed(service) }
        let log: @Sendable (String) -> Void = { line in
            let bytes = Array((line + "\n").utf8)
            _ = write(2, bytes, bytes.count)
        }
        let server = try CartHTTPServer(
            service: service,
            configuration: CartHTTPConfiguration(
                port: options.port, adminToken: options.adminToken,
                cartIDKey: CartIDKey(storeSecret: try service.storeSecret()), storeKind: "sqlite",
                threads: options.threads, accessLog: options.accessLog ? log : nil, errorLog: log))
        if options.mintCount > 0 {
            let ids = (0..<options.mintCount).map { _ in server.api.minter.mint() }.joined(separator: "\n") + "\n"
            guard let file = fopen(options.mintFile, "w") else { throw SeedError("cannot write \(options.mintFile)") }
            fputs(ids, file)
            fclose(file)
        }
        return server
    }

    /// Lets lines grow to the largest cap and stocks the catalog the benchmarks use.
    private static func seed(_ service: CartService) throws {
        try service.updateSettings(maxLineQuantity: StoreSettings.maxLineQuantityRange.upperBound)
        let currency = try service.settings().currency
        try service.importProducts([
            Product(sku: "apple", name: "Apple", price: Money(minorUnits: 50, currency: currency)),
            Product(sku: "banana", name: "Banana", price: Money(minorUnits: 25, currency: currency), stock: 1_000_000),
            Product(sku: "cherry", name: "Cherry", price: Money(minorUnits: 1299, currency: currency)),
        ])
    }

    /// A set-up step that failed, in words.
    struct SeedError: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }
}
