import HTTPServer

/// The benchmark's handler: the fixed JSON body that raw-http-baseline answers.
enum FixedResponder {
    static let body = Array(#"{"status":"ok","store":"baseline"}"#.utf8)

    static let handler: HTTPHandler = { _ in
        .json(body)
    }
}
