import CMicroHTTPD
import CMicroHTTPDLoader
import Dispatch
import Synchronization
import Glibc

/// The C callbacks given to libmicrohttpd, which calls them on its own threads.
///
/// Each is a closure literal in a nonisolated context, so it carries no actor isolation that
/// would trap on a libmicrohttpd thread, and each finds its Swift object through the `cls`
/// or per-request pointer it was given (an `Unmanaged` reference).
enum MHDCallbacks {
    /// Runs once per request as soon as its request line is in: makes the request's context
    /// (from the raw target, before libmicrohttpd decodes it, and the client's address, which
    /// a request libmicrohttpd refuses before its headers are whole is logged with).
    static let requestStarted: cart_mhd_uri_log_callback = { cls, uri, connection in
        guard cls != nil else { return nil }
        let target = uri.map { Array(UnsafeRawBufferPointer(start: $0, count: strlen($0))) } ?? []
        let request = RequestContext(target: target, start: .now)
        request.remoteAddress = connection.flatMap { ListenAddress.numericHost(cart_mhd_client_address($0)) }
        return Unmanaged.passRetained(request).toOpaque()
    }

    /// libmicrohttpd's accept policy: once the server is stopping, it closes each new
    /// connection as soon as it is accepted.
    static let acceptPolicy: MHD_AcceptPolicyCallback = { cls, _, _ in
        guard let cls else { return .NO }
        let server = Unmanaged<ServerContext>.fromOpaque(cls).takeUnretainedValue()
        return server.stopping.load(ordering: .relaxed) ? .NO : .YES
    }

    /// libmicrohttpd's access handler: called once the headers are in, once per piece of
    /// body, and once more when the request is complete.
    static let access: MHD_AccessHandlerCallback = {
        cls, connection, _, method, version, uploadData, uploadSize, requestSlot in
        guard let cls, let connection, let uploadSize, let requestSlot, let slot = requestSlot.pointee else {
            return .NO
        }
        let server = Unmanaged<ServerContext>.fromOpaque(cls).takeUnretainedValue()
        let request = Unmanaged<RequestContext>.fromOpaque(slot).takeUnretainedValue()
        return server.access(
            connection: connection, request: request, method: method, version: version,
            upload: uploadData, uploadSize: uploadSize)
    }

    /// Runs once per request when it is over, however it ended: logs it and releases its
    /// context.
    static let requestCompleted: MHD_RequestCompletedCallback = { cls, _, requestSlot, termination in
        guard let cls, let requestSlot, let slot = requestSlot.pointee else { return }
        requestSlot.pointee = nil
        let server = Unmanaged<ServerContext>.fromOpaque(cls).takeUnretainedValue()
        let request = Unmanaged<RequestContext>.fromOpaque(slot).takeRetainedValue()
        server.completed(request, termination: termination)
    }

    /// Formats libmicrohttpd's printf-style messages for the error log, leaving out those that
    /// only say a client went away.
    static let log: MHD_LogCallback = { cls, format, arguments in
        guard let cls, let format, let arguments else { return }
        let server = Unmanaged<ServerContext>.fromOpaque(cls).takeUnretainedValue()
        var buffer = [CChar](repeating: 0, count: 1024)
        _ = vsnprintf(&buffer, buffer.count, format, arguments)
        var message = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        while message.last?.isNewline == true { message.removeLast() }
        if !reportsClientGone(message) { server.log(readable(message)) }
    }

    /// libmicrohttpd's report of an answer it made itself, `Error processing request (HTTP
    /// response code is 431 ('<html><head><title>Request too big</title>…')). Closing
    /// connection.`, without the page: `answered 431 (Request too big) and closed the
    /// connection`. Other messages are returned as they are.
    static func readable(_ message: String) -> String {
        let prefix = "Error processing request (HTTP response code is "
        guard message.hasPrefix(prefix) else { return message }
        let rest = message.dropFirst(prefix.count)
        let code = rest.prefix { $0.isASCII && $0.isNumber }
        guard !code.isEmpty else { return message }
        var text = "answered \(code)"
        if let open = rest.firstRange(of: "<title>"), let close = rest[open.upperBound...].firstRange(of: "</title>") {
            let title = rest[open.upperBound..<close.lowerBound]
                .replacing("&quot;", with: "\"").replacing("&lt;", with: "<").replacing("&gt;", with: ">")
                .replacing("&amp;", with: "&")
            text += " (\(String(title)))"
        }
        return text + " and closed the connection"
    }

    /// How libmicrohttpd's messages end when the client closed or reset its connection: a send
    /// or receive that failed for that reason, or a request cut off. Clients do this all the
    /// time (an event stream's page closed, a download cancelled), and the access log already
    /// records it as `client-gone`, so it is no error of the server's.
    private static let clientGoneEndings = [
        "The connection was forcibly closed by remote peer",
        "The socket is not connected",
        "The socket is no longer available for sending",
        "Connection was closed by remote side with incomplete request.",
    ]

    /// Whether `message` only says that a client went away.
    static func reportsClientGone(_ message: String) -> Bool {
        clientGoneEndings.contains { message.hasSuffix($0) }
    }

    /// Collects request header fields into the `[(name, value)]` array `cls` points to.
    static let collectHeader: MHD_KeyValueIteratorN = { cls, _, key, keySize, value, valueSize in
        guard let cls, let key else { return .YES }
        let fields = cls.assumingMemoryBound(to: [(name: String, value: String)].self)
        let name = String(decoding: UnsafeRawBufferPointer(start: key, count: keySize), as: UTF8.self)
        let text = value.map { String(decoding: UnsafeRawBufferPointer(start: $0, count: valueSize), as: UTF8.self) }
        fields.pointee.append((name: name, value: text ?? ""))
        return .YES
    }

    /// The content reader of a stream body.
    static let readStream: MHD_ContentReaderCallback = { cls, _, buffer, capacity in
        guard let cls, let buffer else { return cart_mhd_end_with_error() }
        return Unmanaged<HTTPStream>.fromOpaque(cls).takeUnretainedValue().read(into: buffer, capacity: capacity)
    }

    /// Releases a stream body once libmicrohttpd is done with the response.
    static let releaseStream: MHD_ContentReaderFreeCallback = { cls in
        guard let cls else { return }
        Unmanaged<HTTPStream>.fromOpaque(cls).release()
    }

    /// The content reader of a produced body.
    static let readChunks: MHD_ContentReaderCallback = { cls, _, buffer, capacity in
        guard let cls, let buffer else { return cart_mhd_end_with_error() }
        return Unmanaged<ChunkedBody>.fromOpaque(cls).takeUnretainedValue().read(into: buffer, capacity: capacity)
    }

    /// Releases a produced body once libmicrohttpd is done with the response.
    static let releaseChunks: MHD_ContentReaderFreeCallback = { cls in
        guard let cls else { return }
        Unmanaged<ChunkedBody>.fromOpaque(cls).release()
    }
}
