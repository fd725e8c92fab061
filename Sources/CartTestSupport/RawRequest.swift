/// A request as a raw string, with `Host` and the given extra header lines, and a
/// `Content-Length` when there is a body.
package func rawRequest(
    _ method: String, _ target: String, host: String = "test", headers: [String] = [], body: String = ""
) -> String {
    var text = "\(method) \(target) HTTP/1.1\r\nHost: \(host)\r\n"
    for header in headers { text += header + "\r\n" }
    if !body.isEmpty { text += "Content-Length: \(body.utf8.count)\r\n" }
    return text + "\r\n" + body
}
