import CartTestSupport
import HTTPServer
import Testing

@Suite("Starting a server")
struct StartTests {
    @Test("a port in use is a clear error with libmicrohttpd's reason")
    func portInUse() throws {
        let first = try startServer { _ in .text("x") }
        defer { first.stop() }
        let port = first.port
        #expect {
            try HTTPServer(configuration: HTTPServerConfiguration(host: "127.0.0.1", port: port)) { _ in .text("x") }
        } throws: { error in
            guard case HTTPServerError.cannotListen(_, let failedPort, let reason) = error else { return false }
            return failedPort == port && reason.contains("in use")
        }
        // Checked beforehand, the address gives the same refusal; once free, it passes.
        #expect(throws: HTTPServerError.cannotListen(host: "127.0.0.1", port: port, reason: "Address already in use")) {
            try HTTPServer.checkAddress(host: "127.0.0.1", port: port)
        }
        first.stop()
        try HTTPServer.checkAddress(host: "127.0.0.1", port: port)
        #expect(throws: HTTPServerError.invalidHost("not a host")) { try HTTPServer.checkAddress(host: "not a host", port: 0) }
    }

    @Test("a host that is not an address or known name is refused")
    func badHost() {
        for host in ["", "not a host", "999.1.1.1", "[::1"] {
            #expect(throws: HTTPServerError.invalidHost(host)) {
                try HTTPServer(configuration: HTTPServerConfiguration(host: host, port: 0)) { _ in .text("x") }
            }
        }
    }

    @Test("out-of-range settings are refused before anything starts")
    func badConfiguration() {
        let bad: [(inout HTTPServerConfiguration) -> Void] = [
            { $0.threads = 0 }, { $0.maxConnections = 0 }, { $0.connectionTimeout = .milliseconds(10) },
            { $0.connectionMemoryLimit = 100 }, { $0.maxBodyBytes = -1 }, { $0.streamHeartbeatInterval = .zero },
        ]
        for adjust in bad {
            #expect(throws: HTTPServerError.self) { try startServer(adjust) { _ in .text("x") } }
        }
    }

    @Test("IPv6 loopback and names work")
    func otherHosts() throws {
        for host in ["::1", "[::1]", "localhost"] {
            let server = try HTTPServer(configuration: HTTPServerConfiguration(host: host, port: 0)) { _ in .text("x") }
            #expect(server.port != 0)
            #expect(server.host == "::1" || server.host == "127.0.0.1")
            #expect(server.authority.hasSuffix(":\(server.port)"))
            server.stop()
        }
    }
}
