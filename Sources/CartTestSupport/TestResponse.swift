/// A response as the test client read it.
package struct TestResponse: Sendable {
    /// The status code.
    package var status: Int
    /// The header fields in order.
    package var headers: [(String, String)]
    /// The body, chunked framing removed.
    package var body: [UInt8]

    /// The first value of a header, its name compared ignoring case.
    package func header(_ name: String) -> String? {
        headers.first { $0.0.lowercased() == name.lowercased() }?.1
    }

    /// The body as UTF-8 text.
    package var text: String {
        String(decoding: body, as: UTF8.self)
    }
}
