import CSQLite
import CartTestSupport
import Foundation
import RegexBuilder
import Testing

/// `cart serve` as it runs in production: the built binary on a free port, driven over real
/// sockets, with other `cart` processes on the same store. Timeouts are generous and only
/// bound a failing test; nothing here measures speed.
@Suite("cart binary: serve")
struct EndToEndServeTests {
    /// A sandbox with apple ($1.29) in the catalog, and `maxLineQuantity` units allowed a line.
    func stocked(maxLineQuantity: Int = 99) throws -> CartSandbox {
        let sandbox = try CartSandbox()
        try sandbox.ok("db", "init", "--max-line-quantity", "\(maxLineQuantity)")
        try sandbox.ok("products", "add", "apple", "--name", "Apple", "--price", "1.29")
        return sandbox
    }

    /// The quantity of `sku` in a cart's JSON.
    func quantity(of sku: String, in cart: [String: Any]) -> Int {
        let items = cart["items"] as? [[String: Any]] ?? []
        return items.first { $0["sku"] as? String == sku }?["quantity"] as? Int ?? 0
    }

    @Test(
        "SIGTERM, SIGINT or SIGHUP (a closed terminal) while an event stream is open ends the stream and exits 0",
        arguments: [SIGTERM, SIGINT, SIGHUP])
    func terminateMidStream(signal: Int32) throws {
        let sandbox = try stocked()
        let server = try RunningServer(in: sandbox)
        let id = try server.mint()
        let stream = try EventStreamClient("/v1/carts/\(id)/events", on: server)
        #expect(try stream.next()?.contains(#""version":0"#) == true)
        server.process.send(signal)
        #expect(server.process.exitStatus() == 0)
        #expect(stream.ends())
        #expect(throws: (any Error).self) { try TestConnection(port: server.port) }
    }

    @Test("after SIGTERM the store file alone holds every change the server made: a copy of it has them")
    func stopLeavesCompleteFile() throws {
        let sandbox = try stocked()
        // Whether the connections happened to close as the process ended varied from stop to
        // stop; three stops make a regression likely to show.
        for round in 1...3 {
            let server = try RunningServer(in: sandbox)
            let id = try server.mint()
            #expect(try server.send("POST", "/v1/carts/\(id)/items", json: #"{"sku":"apple","quantity":2}"#).status == 200)
            server.process.send(SIGTERM)
            #expect(server.process.exitStatus() == 0)
            let log = sandbox.database + "-wal"
            let logSize = (try? FileManager.default.attributesOfItem(atPath: log)[.size] as? Int) ?? 0
            #expect(logSize == 0, "the write-ahead log holds \(logSize) bytes")
            let copy = sandbox.path("copy-\(round).sqlite3")
            try FileManager.default.copyItem(atPath: sandbox.database, toPath: copy)
            #expect(try sandbox.ok("--db", copy, "--cart", id, "show").stdout.contains("2 items"))
        }
    }

    @Test("a store another process is writing is served: the start's check that it can be written does not wait")
    func startsBesideAWriter() throws {
        let sandbox = try stocked()
        // A first server gives the store its secret, a write of its own.
        let first = try RunningServer(in: sandbox)
        first.process.send(SIGTERM)
        #expect(first.process.exitStatus() == 0)
        let lock = try LockHolder(path: sandbox.database)
        let server = try RunningServer(in: sandbox, arguments: ["--busy-timeout", "300"])
        #expect(try server.send("GET", "/v1/health").status == 200)
        lock.release()
        let id = try server.mint()
        #expect(try server.send("POST", "/v1/carts/\(id)/items", json: #"{"sku":"apple"}"#).status == 200)
    }

    @Test(
        "a stop while a request waits on a lock: cut off at the stop's deadline, or at once by a second signal; exit 0, the change not made",
        arguments: [
            ([SIGTERM], "error: requests still running 10.0 seconds after the stop was asked for were cut off"),
            ([SIGINT, SIGINT], "error: a second signal cut off the requests still running"),
        ])
    func stopStuckRequest(signals: [Int32], said: String) throws {
        let sandbox = try stocked()
        let errorLog = sandbox.path("serve.err")
        let server = try RunningServer(in: sandbox, arguments: ["--busy-timeout", "120000"], errorLog: errorLog)
        let id = try server.mint()
        let lock = try LockHolder(path: sandbox.database)
        let stuck = try TestConnection(port: server.port, timeout: 60)
        stuck.send(server.request("POST", "/v1/carts/\(id)/items", json: #"{"sku":"apple"}"#))
        for signal in signals {
            pause(milliseconds: 300)
            server.process.send(signal)
        }
        // The stop's deadline is 10 s; the lock would hold the request for 120 s.
        #expect(server.process.exitStatus(within: 60) == 0)
        let log = (try? String(contentsOfFile: errorLog, encoding: .utf8)) ?? ""
        #expect(log.split(separator: "\n").filter { $0.contains("error:") }.map { String($0.drop { $0 != "e" }) } == [said], "\(log)")
        #expect(throws: (any Error).self) { try stuck.readResponse() }
        lock.release()
        #expect(try sandbox.ok("--cart", id, "show").stdout.contains("is empty"))
    }

    @Test("the same signal twice with nothing in flight, as `timeout` sends it: a whole stop, status 0, the log copied into the file")
    func stopSignalledTwiceWhileIdle() throws {
        let sandbox = try stocked()
        let errorLog = sandbox.path("serve.err")
        let server = try RunningServer(in: sandbox, errorLog: errorLog)
        // A change by another process, so that the server has no request of its own in flight,
        // fills the write-ahead log, which the server's open connections keep.
        try sandbox.ok("products", "add", "fig", "--name", "Fig", "--price", "0.70")
        let filled = try FileManager.default.attributesOfItem(atPath: sandbox.database + "-wal")[.size] as? Int
        #expect((filled ?? 0) > 0)
        server.process.send(SIGTERM)
        // Apart, so that the first is taken before the second comes, as the stop begins.
        pause(milliseconds: 2)
        server.process.send(SIGTERM)
        #expect(server.process.exitStatus() == 0)
        let log = (try? String(contentsOfFile: errorLog, encoding: .utf8)) ?? ""
        #expect(!log.contains("error:"), "\(log)")
        // The stop's checkpoint ran: the write-ahead log is empty.
        let logSize = try? FileManager.default.attributesOfItem(atPath: sandbox.database + "-wal")[.size] as? Int
        #expect(logSize == nil || logSize == 0, "\(String(describing: logSize))")
    }

    /// Sends `request` until `done` accepts its answer, every 100 ms for up to 15 s (a bound
    /// for a failing test; the server polls its store every second); the last answer.
    func answer(_ request: () throws -> TestResponse, until done: (TestResponse) -> Bool) throws -> TestResponse {
        var response = try request()
        for _ in 0..<150 where !done(response) {
            pause(milliseconds: 100)
            response = try request()
        }
        return response
    }

    @Test("a store file deleted under a server with no client polling is noticed: writes refused, then a store put back is served")
    func storeFileDeletedAndRestored() throws {
        let sandbox = try stocked()
        let backup = sandbox.path("backup.sqlite3")
        try sandbox.ok("products", "add", "pear", "--name", "Pear", "--price", "0.80")
        try sandbox.ok("db", "copy", "--to", backup)
        try sandbox.ok("products", "delete", "pear")
        let errorLog = sandbox.path("serve.err")
        let server = try RunningServer(in: sandbox, errorLog: errorLog)
        #expect(try server.send("PUT", "/v1/products/plum", json: #"{"name":"Plum","price":"0.50"}"#).status == 201)

        for suffix in ["", "-wal", "-shm"] { unlink(sandbox.database + suffix) }
        // The write is refused at once, before any poll: it would go into the deleted file.
        let refused = try server.send("PUT", "/v1/products/fig", json: #"{"name":"Fig","price":"0.70"}"#)
        #expect(refused.status == 500 && refused.text.contains("storage_failure"), "\(refused.text)")
        #expect(!FileManager.default.fileExists(atPath: sandbox.database))
        // The server's own poll logs the failure within its second.
        for _ in 0..<150 where !((try? String(contentsOfFile: errorLog, encoding: .utf8)) ?? "").contains("cannot be used") {
            pause(milliseconds: 100)
        }

        #expect(rename(backup, sandbox.database) == 0)
        let served = try answer({ try server.send("GET", "/v1/products/pear") }) { $0.status == 200 }
        #expect(served.status == 200, "\(served.text)")
        #expect(try server.send("PUT", "/v1/products/fig", json: #"{"name":"Fig","price":"0.70"}"#).status == 201)
        server.process.send(SIGTERM)
        #expect(server.process.exitStatus() == 0)
        #expect(try sandbox.ok("products", "show", "fig").stdout.contains("Fig"))

        let log = try String(contentsOfFile: errorLog, encoding: .utf8)
        let failures = log.split(separator: "\n").filter { $0.contains("error: the store cannot be used") }
        #expect(failures.count == 1, "\(log)")
        #expect(log.contains("Note: the store at its path is usable again"), "\(log)")
    }

    @Test("a store file replaced under a server by one it cannot write: health answers 503 store_read_only, no longer 200")
    func healthOnReadOnlyRestore() throws {
        let (sandbox, server, log) = try serveReadOnlyRestore()
        let health = try answer({ try server.send("GET", "/v1/health") }) { $0.status != 200 }
        #expect(health.status == 503 && health.header("Retry-After") == "1", "\(health.status) \(health.text)")
        #expect(health.text.contains(#""code":"store_read_only""#), "\(health.text)")
        #expect(try server.send("GET", "/v1/products/apple").status == 200)
        let write = try server.send("PUT", "/v1/products/fig", json: #"{"name":"Fig","price":"0.70"}"#)
        #expect(write.status == 503, "\(write.text)")
        server.process.send(SIGTERM)
        #expect(server.process.exitStatus() == 0)
        // A connection that can only read wrote nothing to the write-ahead log, so the stop
        // has nothing to copy into the file, and no failure to report.
        let logged = try String(contentsOfFile: log, encoding: .utf8)
        #expect(!logged.contains("write-ahead log"), "\(logged)")
        #expect(try !sandbox.ok("products", "--all").stdout.contains("Fig"))
    }

    @Test("a restored store file given back its write access: health answers 200 again and writes go through, without a restart")
    func writableAgainAfterReadOnlyRestore() throws {
        // A copy in rollback-journal mode, which the server opens read-only with locks (a copy
        // in WAL mode without its log it opens lock-free, and reopens when the file changes).
        let (sandbox, server, _) = try serveReadOnlyRestore(rollbackJournal: true)
        _ = try answer({ try server.send("GET", "/v1/health") }) { $0.status == 503 }
        if getuid() == 0 {
            #expect(chown(sandbox.database, 65534, 65534) == 0)
        } else {
            #expect(chmod(sandbox.database, 0o644) == 0)
        }
        #expect(try server.send("GET", "/v1/health").status == 200)
        let write = try server.send("PUT", "/v1/products/fig", json: #"{"name":"Fig","price":"0.70"}"#)
        #expect(write.status == 201, "\(write.text)")
        // Writable again, the file is switched to WAL as opening it would: its header's
        // read and write versions (bytes 18 and 19) are 2.
        let header = try #require(FileManager.default.contents(atPath: sandbox.database)).prefix(20)
        #expect(Array(header.suffix(2)) == [2, 2])
        server.process.send(SIGTERM)
        #expect(server.process.exitStatus() == 0)
        #expect(try sandbox.ok("products", "show", "fig").stdout.contains("Fig"))
    }

    /// A stocked store served by a server that can write it, then replaced at its path by a
    /// copy the server's user cannot write, in WAL mode or with a rollback journal; the
    /// server's error log is at the returned path.
    private func serveReadOnlyRestore(rollbackJournal: Bool = false) throws -> (CartSandbox, RunningServer, String) {
        let sandbox = try stocked()
        let backup = sandbox.path("data/backup.sqlite3")
        try sandbox.ok("db", "copy", "--to", backup)
        if rollbackJournal {
            var handle: OpaquePointer?
            #expect(sqlite3_open(backup, &handle) == SQLITE_OK)
            #expect(sqlite3_exec(handle, "PRAGMA journal_mode = DELETE", nil, nil, nil) == SQLITE_OK)
            sqlite3_close(handle)
        }
        // Root writes any file, so the server runs as `nobody` then, owning the store but not
        // the backup; another user makes the backup read-only.
        let asRoot = getuid() == 0
        if asRoot {
            let data = sandbox.path("data")
            for name in try FileManager.default.contentsOfDirectory(atPath: data) where name != "backup.sqlite3" {
                #expect(chown(data + "/" + name, 65534, 65534) == 0)
            }
            #expect(chown(data, 65534, 65534) == 0)
        } else {
            #expect(chmod(backup, 0o444) == 0)
        }
        let log = sandbox.path("serve.log")
        let server = try RunningServer(in: sandbox, errorLog: log, launcher: asRoot ? CartSandbox.asNobody : [])
        #expect(try server.send("GET", "/v1/health").status == 200)
        for suffix in ["", "-wal", "-shm"] { unlink(sandbox.database + suffix) }
        // The server follows the file now at the path, and can only read it.
        #expect(rename(backup, sandbox.database) == 0)
        return (sandbox, server, log)
    }

    @Test("SIGINT stops an idle server with status 0 and nothing more on stdout")
    func interruptIdle() throws {
        let sandbox = try stocked()
        let server = try RunningServer(in: sandbox)
        #expect(try server.send("GET", "/v1/health").status == 200)
        server.process.send(SIGINT)
        #expect(server.process.exitStatus() == 0)
        #expect(server.process.nextLine(within: 0) == nil)
    }

    @Test("a 'cart add' in another process shows up on the event stream")
    func streamSeesTheCLI() throws {
        let sandbox = try stocked()
        let server = try RunningServer(in: sandbox)
        let id = try server.mint()
        let stream = try EventStreamClient("/v1/carts/\(id)/events", on: server)
        #expect(try stream.next()?.contains(#""items":[]"#) == true)
        try sandbox.ok("--cart", id, "add", "apple", "3")
        let changed = try #require(try stream.next())
        #expect(changed.contains(#""quantity":3"#) && changed.contains(#""version":1"#), "\(changed)")
    }

    @Test("one checkout raced from 10 connections with one Idempotency-Key places one order")
    func racedCheckout() throws {
        let sandbox = try stocked()
        let server = try RunningServer(in: sandbox)
        let id = try server.mint()
        try sandbox.ok("--cart", id, "add", "apple", "2")
        let statuses = Recorder<Int>()
        let numbers = Recorder<Int>()
        runOnThreads(10) { _ in
            guard
                let response = try? server.send("POST", "/v1/carts/\(id)/checkout", headers: ["Idempotency-Key: raced"])
            else { return statuses.record(-1) }
            statuses.record(response.status)
            if let order = (try? response.object())?["order"] as? [String: Any], let number = order["number"] as? Int {
                numbers.record(number)
            }
        }
        #expect(statuses.all.sorted() == [200, 200, 200, 200, 200, 200, 200, 200, 200, 201])
        #expect(Set(numbers.all).count == 1)
        let orders = try sandbox.ok("orders", "--json").stdout
        #expect(orders.components(separatedBy: #""number":"#).count == 2, "\(orders)")
    }

    @Test("8 connections adding 25 times each to one line end at 200")
    func concurrentAdds() throws {
        let sandbox = try stocked(maxLineQuantity: 1000)
        let server = try RunningServer(in: sandbox)
        let id = try server.mint()
        let failures = unexpectedAnswers(threads: 8, times: 25, expecting: 200) {
            try server.send("POST", "/v1/carts/\(id)/items", json: #"{"sku":"apple"}"#)
        }
        #expect(failures == [])
        let cart = try server.send("GET", "/v1/carts/\(id)")
        #expect(quantity(of: "apple", in: try cart.object()) == 200)
        #expect(cart.header("ETag") == #""200""#)
    }

    @Test("with an admin token set, admin routes and unminted carts need it; minted carts do not")
    func adminRoutesNeedTheToken() throws {
        let sandbox = try stocked()
        let server = try RunningServer(in: sandbox, adminToken: true)
        for target in ["/v1/orders", "/v1/orders/stats", "/v1/carts/default"] {
            #expect(try server.send("GET", target).status == 401, "\(target)")
            #expect(try server.send("GET", target, token: "wrong-token-0123456789abc").status == 401, "\(target)")
            #expect(try server.send("GET", target, token: RunningServer.token).status == 200, "\(target)")
        }
        let refused = try server.send("PUT", "/v1/products/kiwi", json: #"{"name":"Kiwi","price":"0.40"}"#)
        #expect(refused.status == 401)
        #expect(refused.header("WWW-Authenticate")?.hasPrefix("Bearer") == true)
        let id = try server.mint()
        #expect(try server.send("GET", "/v1/carts/\(id)").status == 200)
        #expect(!(try sandbox.ok("products", "--all").stdout.contains("kiwi")))
    }

    @Test("an admin's PATCH changes what it names, and the CLI sees it at once")
    func patchProductAsAdmin() throws {
        let sandbox = try stocked()
        try sandbox.ok("products", "update", "apple", "--stock", "4")
        let server = try RunningServer(in: sandbox, adminToken: true)
        #expect(try server.send("PATCH", "/v1/products/apple", json: #"{"stockChange":6}"#).status == 401)
        let delivered = try server.send("PATCH", "/v1/products/apple", json: #"{"stockChange":6,"price":"1.49"}"#, token: RunningServer.token)
        #expect(delivered.status == 200, "\(delivered.text)")
        let shown = try sandbox.ok("--json", "products", "show", "apple").stdout
        let product = try #require(try JSONSerialization.jsonObject(with: Data(shown.utf8)) as? [String: Any])
        #expect(product["stock"] as? Int == 10 && product["price"] as? String == "1.49", "\(shown)")
        let refused = try server.send("PATCH", "/v1/products/apple", json: #"{"stockChange":-11}"#, token: RunningServer.token)
        #expect(refused.status == 422, "\(refused.text)")
        #expect(try sandbox.ok("--json", "products", "show", "apple").stdout == shown)
    }

    @Test("PUT and PATCH quote a price over the cap as sent, not as the amount it parses to, and change nothing")
    func priceOverCapQuotedAsSent() throws {
        let sandbox = try stocked()
        let before = try sandbox.ok("products", "--all", "--json").stdout
        let server = try RunningServer(in: sandbox)
        for (method, sku, body) in [
            ("PUT", "kiwi", #"{"name":"Kiwi","price":"100000000"}"#), ("PUT", "apple", #"{"name":"Apple","price":"100000000"}"#),
            ("PATCH", "apple", #"{"price":"100000000"}"#),
        ] {
            let refused = try server.send(method, "/v1/products/\(sku)", json: body)
            #expect(refused.status == 400, "\(method) \(sku): \(refused.text)")
            #expect(
                refused.text == #"{"error":{"code":"invalid_amount","message":"Invalid amount '100000000': prices are at most 1000000.00."}}"#,
                "\(method) \(sku)")
        }
        #expect(try sandbox.ok("products", "--all", "--json").stdout == before)
    }

    @Test("a product body's currency is read as the CLI reads one: in any case, so 'usd' names the store's USD")
    func productCurrencyInAnyCase() throws {
        let sandbox = try stocked()
        let file = try sandbox.write("p.csv", Array("sku,name,price,currency\nfig,Fig,0.45,usd\n".utf8))
        #expect(try sandbox.ok("products", "import", file).stdout.contains("1 created"))
        let server = try RunningServer(in: sandbox, adminToken: true)
        let put = try server.send("PUT", "/v1/products/kiwi", json: #"{"name":"Kiwi","price":"0.40","currency":"usd"}"#, token: RunningServer.token)
        #expect(put.status == 201, "\(put.text)")
        #expect(try put.object()["currency"] as? String == "USD")
        let patch = try server.send("PATCH", "/v1/products/apple", json: #"{"price":"1.49","currency":"Usd"}"#, token: RunningServer.token)
        #expect(patch.status == 200, "\(patch.text)")
        #expect(try sandbox.ok("products", "show", "apple").stdout.contains("$1.49"))
        // Another currency, in any case, is still not the store's.
        let other = try server.send("PUT", "/v1/products/kiwi", json: #"{"name":"Kiwi","price":"0.40","currency":"eur"}"#, token: RunningServer.token)
        #expect(other.status == 400 && other.text.contains("currency_mismatch"), "\(other.text)")
    }

    @Test(
        "an unusable admin token: one error line saying what is wrong, status 64, no store made",
        arguments: [
            (["--admin-token", "short"], [String: String](), "from '--admin-token <token>' is not usable: it has 5 characters; use at least 16"),
            ([], ["CART_ADMIN_TOKEN": "abcdefghijklmnopq\n"], "from CART_ADMIN_TOKEN is not usable: it holds a line break"),
            (["--admin-token", "abcdefghij klmnopq"], [:], "it holds a space"),
        ])
    func unusableAdminToken(_ arguments: [String], _ environment: [String: String], _ reason: String) throws {
        let sandbox = try CartSandbox()
        let result = try sandbox.run(["serve", "--listen", "127.0.0.1:0"] + arguments, environment: environment)
        #expect(result.status == 64, "\(result)")
        #expect(result.errorLines.count == 1 && result.errorLines.first?.contains(reason) == true, "\(result)")
        #expect(result.stdout.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: sandbox.database))
    }

    @Test("an empty CART_ADMIN_TOKEN is refused, not read as no token: one error line, status 64, no store made")
    func emptyAdminTokenVariable() throws {
        let sandbox = try CartSandbox()
        // The sandbox drops empty variables; a shell sets this one.
        let result = try sandbox.shell(#"CART_ADMIN_TOKEN= exec "$0" serve --listen 127.0.0.1:0"#)
        #expect(result.status == 64, "\(result)")
        #expect(
            result.errorLines == [
                "Error: CART_ADMIN_TOKEN is set but empty: give a token of at least 16 characters, or unset it to serve "
                    + "without one (on loopback only)."
            ], "\(result)")
        #expect(result.stdout.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: sandbox.database))
    }

    @Test("beyond loopback without an admin token: one error line and status 64, nothing listens")
    func refusesOpenListener() throws {
        let sandbox = try stocked()
        for arguments in [["serve", "--listen", "0.0.0.0:0"], ["serve"]] {
            let result = try sandbox.run(arguments, environment: arguments.count == 1 ? ["CART_LISTEN": "[::]:0"] : [:])
            #expect(result.status == 64, "\(result)")
            #expect(result.errorLines.count == 1 && result.errorLines.first?.contains("admin token") == true, "\(result)")
            #expect(result.stdout.isEmpty)
        }
    }

    @Test("a host that does not resolve: the same one error line, status 1, with a token or without, and no store")
    func unresolvableHost() throws {
        let sandbox = try CartSandbox()
        let lines = try [[], ["--admin-token", String(repeating: "t", count: 32)]].map { token in
            let result = try sandbox.run(["serve", "--listen", "no-such-host.invalid:8080"] + token)
            #expect(result.status == 1, "\(result)")
            #expect(result.stdout.isEmpty)
            return result.errorLines
        }
        #expect(
            lines[0] == ["Error: Cannot serve on no-such-host.invalid:8080: cannot listen on 'no-such-host.invalid': not an IP address or a known host name."],
            "\(lines)")
        #expect(lines[1] == lines[0])
        #expect(!FileManager.default.fileExists(atPath: sandbox.database))
    }

    @Test("a malformed --listen is one error line and status 64", arguments: ["127.0.0.1:+8080", "127.0.0.1:-0", "127.0.0.1:65536", "127.0.0.1:٨٠", "[::1:80", ":80", "127.0.0.1", " 127.0.0.1:0", "127.0.0.1:0 ", "local host:0"])
    func malformedListen(_ address: String) throws {
        let result = try CartSandbox().run(["serve", "--listen", address])
        #expect(result.status == 64, "\(result)")
        #expect(result.errorLines.count == 1 && result.errorLines.first?.contains("--listen") == true, "\(result)")
        #expect(result.stdout.isEmpty)
        // From the variable, the error names the variable: the command line has no --listen.
        let variable = try CartSandbox().run(["serve"], environment: ["CART_LISTEN": address])
        #expect(variable.status == 64, "\(variable)")
        #expect(variable.errorLines.count == 1, "\(variable)")
        #expect(variable.errorLines.first?.contains("is invalid for CART_LISTEN: ") == true, "\(variable)")
        #expect(variable.errorLines.first?.contains("--listen") == false, "\(variable)")
    }

    @Test("a --listen without a port asks for one, an IPv6 address in brackets too; one written as a URL asks for the host and port alone; one without a host names the token every interface needs")
    func listenWithoutPortOrAsURL() throws {
        let withoutPort = "give a host and a port, such as 127.0.0.1:8080 or [::1]:8080"
        let asURL = "give the host and port alone, without a scheme such as http://, as in 127.0.0.1:8080"
        let withoutHost = "give a host before the port, such as 127.0.0.1, or 0.0.0.0 with an admin token"
        let cases = [
            ("127.0.0.1", withoutPort), ("[::1]", withoutPort), ("localhost", withoutPort),
            ("http://127.0.0.1:8080", asURL), ("http://localhost", asURL), ("http://[::1]:8080/", asURL),
            (":8080", withoutHost),
        ]
        for (address, reason) in cases {
            let result = try CartSandbox().run(["serve", "--listen", address])
            let expected = "Error: The value '\(address)' is invalid for '--listen <host:port>': \(reason)."
            #expect(result.status == 64, "\(result)")
            #expect(result.errorLines.first.map(String.init) == expected, "\(result)")
        }
    }

    @Test("with --json, the line that says where it listens is JSON: {\"url\":…}")
    func listeningAsJSON() throws {
        let sandbox = try stocked()
        let process = try RunningCart(["--json", "serve", "--listen", "127.0.0.1:0"], in: sandbox)
        defer { process.stop() }
        let line = try #require(process.nextLine())
        let prefix = #"{"url":"http://127.0.0.1:"#
        #expect(line.hasPrefix(prefix) && line.hasSuffix(#""}"#), "\(line)")
        let port = try #require(UInt16(line.dropFirst(prefix.count).dropLast(2)), "\(line)")
        let connection = try TestConnection(port: port)
        connection.send("GET /v1/health HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n\r\n")
        #expect(try connection.readResponse().status == 200)
        process.send(SIGTERM)
        #expect(process.exitStatus() == 0)
    }

    @Test("a port another process holds: one error line naming that port and the reason, nothing on stdout")
    func portInUse() throws {
        let sandbox = try stocked()
        let holder = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #expect(holder >= 0)
        defer { close(holder) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { generic in
                bind(holder, generic, length) == 0 && listen(holder, 1) == 0 && getsockname(holder, generic, &length) == 0
            }
        }
        #expect(bound)
        let port = UInt16(bigEndian: address.sin_port)
        let result = try sandbox.run(["serve", "--listen", "127.0.0.1:\(port)"])
        #expect(result.status != 0)
        #expect(result.errorLines.count == 1, "\(result)")
        #expect(result.errorLines.first?.hasPrefix("Error: ") == true, "\(result)")
        #expect(
            result.errorLines.first?.hasSuffix(
                "port \(port): Address already in use; stop what listens there, or choose another port with "
                    + "'--listen <host:port>' (port 0 picks a free one).") == true, "\(result)")
        #expect(result.errorLines.first?.contains("port 0:") == false, "\(result)")
        #expect(result.stdout.isEmpty)
        // On a store that does not exist yet, the refusal makes no store, nor its directory.
        let missing = sandbox.path("new/shop.sqlite3")
        let refused = try sandbox.run(["--db", missing, "serve", "--listen", "127.0.0.1:\(port)"])
        #expect(refused.status == 1)
        #expect(refused.errorLines == result.errorLines, "\(refused)")
        #expect(!FileManager.default.fileExists(atPath: sandbox.path("new")), "\(refused)")
    }

    @Test("a server started on a store that does not exist says so once, and serves a new, empty one")
    func newStoreNoted() throws {
        let sandbox = try CartSandbox()
        for run in 0..<2 {
            let log = sandbox.path("serve-\(run).log")
            let server = try RunningServer(in: sandbox, errorLog: log)
            #expect(try server.send("GET", "/v1/products").status == 200)
            server.process.send(SIGTERM)
            #expect(server.process.exitStatus() == 0)
            let notes = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n").filter { $0.contains("Note:") }
            let expected = run == 0 ? ["Note: there was no store at '\(sandbox.database)'; serving a new, empty one."] : []
            #expect(notes.map { String($0.drop { $0 != "N" }) } == expected, "\(notes)")
        }
    }

    @Test("4 servers started at once on a store that does not exist: all serve it, and exactly one says it made it")
    func newStoreNotedOnce() throws {
        let sandbox = try CartSandbox()
        let logs = (0..<4).map { sandbox.path("serve-\($0).log") }
        let statuses = try CartSandbox.together(logs.count) { index in
            let server = try RunningServer(in: sandbox, errorLog: logs[index])
            let listed = try server.send("GET", "/v1/products").status
            server.process.send(SIGTERM)
            return [listed, server.process.exitStatus().map(Int.init) ?? -1]
        }
        #expect(statuses.allSatisfy { $0 == [200, 0] }, "\(statuses)")
        let notes = try logs.flatMap { log in
            try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n").filter { $0.contains("Note:") }
        }
        #expect(notes.map { String($0.drop { $0 != "N" }) } == ["Note: there was no store at '\(sandbox.database)'; serving a new, empty one."], "\(notes)")
    }

    @Test("on the in-memory store, it says as it starts, in the log's form, that nothing is kept, and only then")
    func memoryStoreNoted() throws {
        let sandbox = try CartSandbox()
        let log = sandbox.path("serve.log")
        let process = try RunningCart(["--db", "memory:", "serve", "--listen", "127.0.0.1:0"], in: sandbox, errorLog: log)
        defer { process.stop() }
        #expect(try #require(process.nextLine()).hasPrefix("Listening on http://127.0.0.1:"))
        let note = "Note: the in-memory store keeps nothing; every change is lost when this command ends."
        let stamp = #/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z /#
        // Written before the line that says where it listens, so there while it runs.
        let running = try String(contentsOfFile: log, encoding: .utf8)
        #expect(running.split(separator: "\n").contains { $0.wholeMatch(of: Regex { stamp; note }) != nil }, "\(running)")
        process.send(SIGTERM)
        #expect(process.exitStatus() == 0)
        let stopped = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n")
        #expect(stopped.filter { $0.contains("Note:") }.count == 1, "\(stopped)")
    }

    @Test("listening on every interface, it says on stderr which address to open from this machine")
    func everyInterfaceNote() throws {
        let sandbox = try stocked()
        let log = sandbox.path("serve.log")
        let process = try RunningCart(
            ["serve", "--listen", "0.0.0.0:0"], in: sandbox, environment: ["CART_ADMIN_TOKEN": RunningServer.token], errorLog: log)
        defer { process.stop() }
        let line = try #require(process.nextLine())
        let prefix = "Listening on http://0.0.0.0:"
        #expect(line.hasPrefix(prefix), "\(line)")
        process.send(SIGTERM)
        #expect(process.exitStatus() == 0)
        let notes = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n").filter { $0.contains("Note:") }
        let expected = "Note: listening on every interface; from this machine, open http://127.0.0.1:\(line.dropFirst(prefix.count))."
        #expect(notes.map { String($0.drop { $0 != "N" }) } == [expected], "\(notes)")
    }

    @Test(
        "--client-connections bounds one address's open connections: 64 beyond loopback unless given, 0 for no bound",
        arguments: [([String](), 64), (["--client-connections", "0"], nil), (["--client-connections", "3"], 3)])
    func clientConnections(_ arguments: [String], _ limit: Int?) throws {
        let sandbox = try stocked()
        let process = try RunningCart(
            ["serve", "--listen", "0.0.0.0:0"] + arguments, in: sandbox, environment: ["CART_ADMIN_TOKEN": RunningServer.token])
        defer { process.stop() }
        let line = try #require(process.nextLine())
        let port = try #require(line.split(separator: ":").last.flatMap { UInt16($0) }, "\(line)")
        let health = "GET /v1/health HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\r\n"
        // Every connection stays open, as an event stream's or a keep-alive client's would.
        var open: [TestConnection] = []
        for _ in 0..<(limit ?? 70) {
            let connection = try TestConnection(port: port)
            connection.send(health)
            #expect(try connection.readResponse().status == 200)
            open.append(connection)
        }
        let next = try TestConnection(port: port)
        if limit != nil {
            #expect(next.peerClosed(), "connection \(open.count + 1) of one address was served")
            // A connection that closes makes room for another.
            open.removeLast()
            let again = try waitForRoom(port: port, request: health)
            #expect(again == 200)
        } else {
            next.send(health)
            #expect(try next.readResponse().status == 200)
        }
    }

    /// The status of `request` on a new connection to `port`, tried until the server stops
    /// closing new connections at once (a closed connection's slot frees when the server
    /// notices the close), for up to 5 seconds.
    private func waitForRoom(port: UInt16, request: String) throws -> Int? {
        for _ in 0..<50 {
            let connection = try TestConnection(port: port)
            connection.send(request)
            if let response = try? connection.readResponse() { return response.status }
            usleep(100_000)
        }
        return nil
    }

    @Test("stderr names the store served, then has one access-log line per request: method, path, status, duration")
    func accessLog() throws {
        let sandbox = try stocked()
        let log = sandbox.path("serve.log")
        let server = try RunningServer(in: sandbox, errorLog: log)
        #expect(try server.send("GET", "/v1/health").status == 200)
        #expect(try server.send("GET", "/v1/products/nothing").status == 404)
        server.process.send(SIGTERM)
        #expect(server.process.exitStatus() == 0)
        var lines = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n")
        let stamp = #/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z /#
        let store = "Serving the sqlite store '\(sandbox.database)'."
        #expect(lines.first?.wholeMatch(of: Regex { stamp; store }) != nil, "\(lines)")
        lines.removeFirst()
        #expect(lines.count == 2, "\(lines)")
        // A line is written once its response is sent, so two lines may swap places.
        // The UTC time it was written, the client's address, then the request.
        #expect(lines.contains { $0.wholeMatch(of: Self.stamped("GET /v1/health 200 ")) != nil }, "\(lines)")
        #expect(lines.contains { $0.wholeMatch(of: Self.stamped("GET /v1/products/nothing 404 ")) != nil }, "\(lines)")
    }

    @Test("an event-stream client that goes away leaves only access-log lines on stderr")
    func streamClientGone() throws {
        let sandbox = try stocked()
        let log = sandbox.path("serve.log")
        let server = try RunningServer(in: sandbox, errorLog: log)
        let id = try server.mint()
        var stream: EventStreamClient? = try EventStreamClient("/v1/carts/\(id)/events", on: server)
        #expect(try stream?.next()?.contains(#""version":0"#) == true)
        // Closing the socket is what the kernel does for a client that is killed.
        stream = nil
        // Each change is written to the stream; a write after the close fails, and ends it.
        let streamLine = " 127.0.0.1 GET /v1/carts/\(id)/events 200 "
        func lines() throws -> [Substring] { try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n") }
        for _ in 0..<20 {
            if try lines().contains(where: { $0.contains(streamLine) }) { break }
            try sandbox.ok("--cart", id, "add", "apple", "1")
            pause(milliseconds: 300)
        }
        server.process.send(SIGTERM)
        #expect(server.process.exitStatus() == 0)
        // The first line names the store served.
        let logged = try lines().dropFirst()
        #expect(logged.contains { $0.contains(streamLine) && $0.hasSuffix("ms client-gone") }, "\(logged)")
        let accessLine = #/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z 127\.0\.0\.1 (GET|POST) /\S* \d{3} \d+\.\d{3}ms( [a-z-]+)?/#
        #expect(logged.allSatisfy { $0.wholeMatch(of: accessLine) != nil }, "\(logged)")
    }

    @Test("an event stream refused at the cap leaves its access line, and one error line, on stderr")
    func streamCapLogged() throws {
        let sandbox = try stocked()
        let log = sandbox.path("serve.log")
        let server = try RunningServer(in: sandbox, errorLog: log)
        let id = try server.mint()
        // `cart serve` holds 1,000 connections, three quarters of them for streams.
        let streams = try (0..<750).map { _ in try EventStreamClient("/v1/carts/\(id)/events", on: server) }
        for _ in 0..<2 {
            let refused = try server.send("GET", "/v1/carts/\(id)/events")
            #expect(refused.status == 503 && refused.text.contains(#""code":"too_many_streams""#), "\(refused)")
        }
        withExtendedLifetime(streams) {}
        server.process.send(SIGTERM)
        #expect(server.process.exitStatus() == 0)
        let lines = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n")
        let errors = lines.filter { $0.contains("error:") }.map { String($0.drop { $0 != "e" }) }
        let refusal = "error: event streams: refused a new one with 503 too_many_streams: 750 open, the most this server serves at once"
        #expect(errors == [refusal], "\(errors)")
        let refusedLines = lines.filter { $0.wholeMatch(of: Self.stamped("GET /v1/carts/\(id)/events 503 ")) != nil }
        #expect(refusedLines.count == 2, "\(lines.suffix(5))")
    }

    @Test("--max-connections sets the connections served at once, and the event streams' three quarters of them")
    func maxConnections() throws {
        let sandbox = try stocked()
        let server = try RunningServer(in: sandbox, arguments: ["--max-connections", "4"])
        let id = try server.mint()
        let streams = try (0..<3).map { _ in try EventStreamClient("/v1/carts/\(id)/events", on: server) }
        let refused = try server.send("GET", "/v1/carts/\(id)/events")
        #expect(refused.status == 503 && refused.text.contains("at once (3)"), "\(refused)")
        #expect(try server.send("GET", "/v1/carts/\(id)").status == 200, "the fourth connection serves other requests")
        withExtendedLifetime(streams) {}
        for value in ["0", "65537", "many"] {
            let result = try sandbox.run("serve", "--listen", "127.0.0.1:0", "--max-connections", value)
            #expect(result.status == 64 && result.errorLines.count == 1 && result.stderr.contains("--max-connections"), "\(result)")
        }
    }

    /// An access-log line of `cart serve` for `request` (method, target, status and a space):
    /// the time, the client's address, the request, its duration.
    static func stamped(_ request: String) -> Regex<Substring> {
        Regex {
            #/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z 127\.0\.0\.1 /#
            request
            #/\d+\.\d{3}ms/#
        }
    }

    @Test("kill -9 under load from 64 connections: every answered write is in the store, which checks clean and serves again")
    func killUnderLoad() throws {
        let sandbox = try stocked(maxLineQuantity: 10_000)
        let server = try RunningServer(in: sandbox, arguments: ["--threads", "4"])
        let carts = try (0..<64).map { _ in try server.mint() }
        // Per connection: writes answered 200, and writes sent without an answer (which the
        // store may or may not hold).
        let acknowledged = Recorder<(index: Int, added: Int, unanswered: Int)>()
        let unexpected = Recorder<String>()
        runOnThreads(65) { index in
            guard index < 64 else {
                pause(milliseconds: 1500)
                return server.process.send(SIGKILL)
            }
            var added = 0
            var unanswered = 0
            defer { acknowledged.record((index, added, unanswered)) }
            let request = server.request("POST", "/v1/carts/\(carts[index])/items", json: #"{"sku":"apple"}"#)
            while let connection = try? TestConnection(port: server.port) {
                while true {
                    guard connection.send(request), let response = try? connection.readResponse() else {
                        unanswered += 1
                        break
                    }
                    if response.status == 200 {
                        added += 1
                    } else {
                        unexpected.record("\(response.status) \(response.text)")
                    }
                }
            }
        }
        #expect(server.process.exitStatus() != nil)
        #expect(unexpected.all == [])
        #expect(acknowledged.all.map(\.added).reduce(0, +) > 0)
        try sandbox.ok("db", "check")

        let restarted = try RunningServer(in: sandbox)
        for (index, added, unanswered) in acknowledged.all {
            let stored = quantity(of: "apple", in: try restarted.send("GET", "/v1/carts/\(carts[index])").object())
            #expect(
                (added...(added + unanswered)).contains(stored),
                "cart \(index): \(added) answered, \(unanswered) unanswered, \(stored) stored")
        }
        #expect(try restarted.send("POST", "/v1/carts/\(carts[0])/items", json: #"{"sku":"apple"}"#).status == 200)
    }
}
