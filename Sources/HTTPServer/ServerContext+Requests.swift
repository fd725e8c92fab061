import CMicroHTTPD
import CMicroHTTPDLoader
import Dispatch
import Synchronization

extension ServerContext {
    /// The access handler's work. The first call (headers in, no body yet) records the
    /// request and refuses bad framing or an announced body over the limit; body calls keep
    /// the bytes, up to the limit; the final call runs the handler and queues its response.
    func access(
        connection: OpaquePointer, request: RequestContext, method: UnsafePointer<CChar>?,
        version: UnsafePointer<CChar>?, upload: UnsafePointer<CChar>?, uploadSize: UnsafeMutablePointer<Int>
    ) -> MHD_Result {
        guard let headers = request.headers else {
            // In flight from here: a client that sent a request line and nothing more holds no
            // graceful stop up.
            inFlight.enter()
            request.inFlight = true
            return begin(connection: connection, request: request, method: method, version: version)
        }
        if uploadSize.pointee > 0 {
            return receive(request: request, bytes: upload, count: uploadSize)
        }
        if request.bodyTooLarge {
            return queueError(413, "request body is larger than \(configuration.maxBodyBytes) bytes", connection, request)
        }
        let response = handler(
            HTTPRequest(
                method: request.method, rawTarget: request.target, version: request.version, headers: headers,
                body: request.body, remoteAddress: request.remoteAddress))
        request.body = []
        return queue(response, on: connection, for: request)
    }

    /// Releases a finished request's context: ends its stream and writes its log entry.
    func completed(_ request: RequestContext, termination: MHD_RequestTerminationCode) {
        if let stream = request.stream {
            if stream.overran { request.failed = true }
            stream.finish()
            unregister(stream)
        }
        if let accessLog = configuration.accessLog {
            let outcome: HTTPRequestOutcome =
                switch termination {
                case .REQUEST_TERMINATED_COMPLETED_OK: request.failed ? .failed : .completed
                // A stream that failed while its client read nothing ends at the timeout.
                case .REQUEST_TERMINATED_TIMEOUT_REACHED: request.failed ? .failed : .timedOut
                case .REQUEST_TERMINATED_DAEMON_SHUTDOWN: .serverStopped
                case .REQUEST_TERMINATED_WITH_ERROR:
                    // Unanswered, the request was refused before it was whole: by libmicrohttpd
                    // when the access handler never ran (no method), by the server when the
                    // body ran far over the limit.
                    if request.failed {
                        .failed
                    } else if request.status == nil && (request.method.isEmpty || request.bodyTooLarge) {
                        .refused
                    } else {
                        .clientGone
                    }
                default: .clientGone
                }
            accessLog(
                HTTPAccessLogEntry(
                    method: request.method, target: String(decoding: request.target, as: UTF8.self),
                    status: request.status, duration: .now - request.start, remoteAddress: request.remoteAddress,
                    outcome: outcome))
        }
        if request.inFlight { inFlight.leave() }
    }

    private func begin(
        connection: OpaquePointer, request: RequestContext, method: UnsafePointer<CChar>?,
        version: UnsafePointer<CChar>?
    ) -> MHD_Result {
        var fields: [(name: String, value: String)] = []
        fields.reserveCapacity(16)
        _ = withUnsafeMutablePointer(to: &fields) {
            cart_MHD_get_connection_values_n(connection, .HEADER_KIND, MHDCallbacks.collectHeader, $0)
        }
        let headers = HTTPHeaders(fields)
        request.headers = headers
        request.method = method.map { String(cString: $0) } ?? ""
        request.version = version.map { String(cString: $0) } ?? ""
        // A field value holds no control character but tab (RFC 9110 §5.5); a bare CR, which
        // a proxy could read as a line end, is refused rather than passed on (RFC 9112 §2.2).
        if fields.contains(where: { $0.value.utf8.contains { ($0 < 0x20 && $0 != 0x09) || $0 == 0x7F } }) {
            return queueError(400, "a header value holds a control character", connection, request)
        }
        // libmicrohttpd frames the body by the first Content-Length, or by Transfer-Encoding
        // when present; anything a proxy could read differently is refused.
        if fields.contains(where: { Self.isFoldedFraming($0.name) }) {
            return queueError(400, "a folded Content-Length or Transfer-Encoding header", connection, request)
        }
        let lengths = headers.values(for: "Content-Length")
        let codings = headers.values(for: "Transfer-Encoding")
        if lengths.count > 1 {
            return queueError(400, "more than one Content-Length header", connection, request)
        }
        if !lengths.isEmpty && !codings.isEmpty {
            return queueError(400, "both Content-Length and Transfer-Encoding headers", connection, request)
        }
        if !codings.isEmpty && (codings.count > 1 || !HTTPHeaders.sameName(codings[0], "chunked")) {
            return queueError(400, "unsupported Transfer-Encoding: only chunked is accepted", connection, request)
        }
        // HTTP/1.0 has no transfer codings: a proxy in front may frame such a body by its
        // absence of Content-Length, as empty, while libmicrohttpd reads it chunked (RFC 9112 §6.1).
        if !codings.isEmpty && request.version == "HTTP/1.0" {
            return queueError(400, "Transfer-Encoding in an HTTP/1.0 request", connection, request)
        }
        // RFC 9112 §3.2: readers could disagree on which of two Host fields names the server.
        if fields.count(where: { HTTPHeaders.sameName($0.name, "Host") }) > 1 {
            return queueError(400, "more than one Host header", connection, request)
        }
        if let length = lengths.first.flatMap({ UInt64($0) }), length > UInt64(configuration.maxBodyBytes) {
            return queueError(413, "request body is larger than \(configuration.maxBodyBytes) bytes", connection, request)
        }
        return .YES
    }

    /// Keeps a piece of body, or drops it once the body is over the limit. A body that keeps
    /// coming long past the limit closes the connection without an answer.
    private func receive(
        request: RequestContext, bytes: UnsafePointer<CChar>?, count: UnsafeMutablePointer<Int>
    ) -> MHD_Result {
        let size = count.pointee
        count.pointee = 0
        let (received, overflow) = request.received.addingReportingOverflow(size)
        request.received = received
        if overflow || received / 4 > configuration.maxBodyBytes { return .NO }
        if received > configuration.maxBodyBytes {
            request.bodyTooLarge = true
            request.body = []
        } else if let bytes {
            request.body.append(contentsOf: UnsafeRawBufferPointer(start: bytes, count: size))
        }
        return .YES
    }

    /// Whether `name` is `Content-Length` or `Transfer-Encoding` with more after it. libmicrohttpd
    /// joins a folded line (one that starts with a space) to the field's name, not its value:
    /// `Content-Length:` folded onto ` 5` arrives as a field `Content-Length5`, and frames no
    /// body, while a proxy that unfolds the line (RFC 9112 §5.2) frames one, which the server
    /// would read as the next request whenever the route takes an empty body.
    private static func isFoldedFraming(_ name: String) -> Bool {
        ["content-length", "transfer-encoding"].contains { field in
            name.utf8.count > field.utf8.count
                && name.utf8.prefix(field.utf8.count).elementsEqual(field.utf8) { byte, lowercase in
                    ((0x41...0x5A).contains(byte) ? byte | 0x20 : byte) == lowercase
                }
        }
    }

    private func queueError(
        _ status: Int, _ message: String, _ connection: OpaquePointer, _ request: RequestContext
    ) -> MHD_Result {
        queue(configuration.errorResponse(status, message), on: connection, for: request)
    }

    /// Turns `response` into a libmicrohttpd response and queues it; a response that breaks
    /// the rules in ``HTTPResponse`` is replaced by a 500.
    private func queue(_ response: HTTPResponse, on connection: OpaquePointer, for request: RequestContext) -> MHD_Result {
        var response = response
        if let problem = Self.problem(with: response) {
            let method = HTTPAccessLogEntry.logged(method: request.method)
            let target = HTTPAccessLogEntry.logged(target: String(decoding: request.target, as: UTF8.self))
            log("refused the response to \(method) \(target): \(problem)")
            // A refused stream is never sent: its close actions (the application's subscriber
            // lists) run now rather than never.
            if case .stream(let stream) = response.body { stream.close() }
            response = configuration.errorResponse(500, "internal server error")
            if Self.problem(with: response) != nil { response = Self.internalError }
        }
        if case .stream(let stream) = response.body {
            if stream.attach(to: connection) {
                request.stream = stream
                register(stream)
            } else {
                log("refused a response whose stream another response already sends")
                response = Self.internalError
            }
        }
        var made = makeResponse(response, for: request)
        if made == nil {
            log("libmicrohttpd refused the response to \(HTTPAccessLogEntry.logged(method: request.method)): status \(response.status)")
            response = Self.internalError
            made = makeResponse(response, for: request)
        }
        guard let made else { return .NO }
        let queued = cart_MHD_queue_response(connection, UInt32(response.status), made)
        cart_MHD_destroy_response(made)
        request.status = response.status
        return queued
    }

    /// The 500 sent when even the configured error response cannot be.
    private static var internalError: HTTPResponse { .text("internal server error\n", status: 500) }

    /// The libmicrohttpd response for `response`, headers added, or nil if it refuses any
    /// part of it.
    private func makeResponse(_ response: HTTPResponse, for request: RequestContext) -> OpaquePointer? {
        guard let made = makeBody(response.body, for: request) else { return nil }
        // `withCString` lends the strings' own bytes; passing a `String` where C wants a pointer
        // would copy each into a new array.
        var accepted = response.headers.allSatisfy { field in
            field.name.withCString { name in
                field.value.withCString { value in cart_MHD_add_response_header(made, name, value) == .YES }
            }
        }
        // After a 400 the connection is closed: a request the server could not read may have
        // been framed otherwise by a proxy in front of it (a folded header line, say), so the
        // bytes that follow on the connection are not taken as the next request.
        if accepted && (response.status == 400 || stopping.load(ordering: .relaxed)) {
            accepted = cart_MHD_add_response_header(made, "Connection", "close") == .YES
        }
        if !accepted { cart_MHD_destroy_response(made) }
        return accepted ? made : nil
    }

    private func makeBody(_ body: HTTPBody, for request: RequestContext) -> OpaquePointer? {
        switch body {
        case .bytes(let bytes):
            return bytes.withUnsafeBytes { buffer in
                cart_MHD_create_response_from_buffer(
                    buffer.count, UnsafeMutableRawPointer(mutating: buffer.baseAddress), .RESPMEM_MUST_COPY)
            }
        case .stream(let stream):
            return Self.chunkedResponse(reading: stream, with: MHDCallbacks.readStream, MHDCallbacks.releaseStream)
        case .chunks(let produce):
            let body = ChunkedBody(produce: produce) { [weak request] error in
                request?.failed = true
                self.log("response body of \(request?.method ?? "") failed: \(error)")
            }
            return Self.chunkedResponse(reading: body, with: MHDCallbacks.readChunks, MHDCallbacks.releaseChunks)
        }
    }

    /// A response of unknown length, sent chunked, whose content `reader` reads from `body`;
    /// the response keeps `body` until `release` lets it go.
    private static func chunkedResponse<Body: AnyObject>(
        reading body: Body, with reader: MHD_ContentReaderCallback, _ release: MHD_ContentReaderFreeCallback
    ) -> OpaquePointer? {
        let cls = Unmanaged.passRetained(body)
        let made = cart_MHD_create_response_from_callback(cart_mhd_size_unknown(), 16 * 1024, reader, cls.toOpaque(), release)
        if made == nil { cls.release() }
        return made
    }

    /// What makes a response unsendable, if anything.
    private static func problem(with response: HTTPResponse) -> String? {
        guard (200...599).contains(response.status) else { return "status \(response.status) is not 200...599" }
        for (name, value) in response.headers {
            guard HTTPHeaders.isFieldName(name) else { return "header name \(name.debugDescription) is not a token" }
            guard !value.isEmpty, value.allUTF8(isValueByte) else {
                return "header \(name) has an empty value or a control character (CR, LF, NUL) in it"
            }
            if HTTPHeaders.sameName(name, "Content-Length") || HTTPHeaders.sameName(name, "Transfer-Encoding") {
                return "header \(name) is the server's to set"
            }
            // libmicrohttpd decides whether the connection stays open, and refuses a response
            // whose `Connection` says `keep-alive`.
            // A token holds no white space, so dropping it drops the list's optional spaces.
            if HTTPHeaders.sameName(name, "Connection"),
                value.split(separator: ",").contains(where: { token in
                    HTTPHeaders.sameName(String(token.filter { $0 != " " && $0 != "\t" }), "keep-alive")
                })
            {
                return "header \(name): keep-alive is the server's to decide"
            }
        }
        return nil
    }

    private static func isValueByte(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "\t") || (byte >= 0x20 && byte != 0x7F)
    }
}
