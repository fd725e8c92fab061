import HTTPServer

/// A cart's version as an entity tag (`ETag: "7"`), and what a request's `If-Match` asks.
enum EntityTag {
    /// What `If-Match` allows a change to apply to.
    enum Precondition: Equatable {
        /// Any version: no `If-Match`, or `If-Match: *`.
        case any
        /// One of these versions, in the order named.
        case versions([Int])
        /// No version: only weak tags (never equal under the strong comparison `If-Match`
        /// uses) or tags that are not versions.
        case unmatchable
    }

    /// The `ETag` value of a cart at `version`: the number in quotes.
    static func header(for version: Int) -> String {
        "\"\(version)\""
    }

    /// The precondition of `request`'s `If-Match`: `*`, or a list of entity tags (RFC 9110
    /// §13.1.1), over one field line or several, which combine into one list.
    ///
    /// - Throws: 400 `invalid_if_match` for an empty or malformed list or tag, or `*` in a list.
    static func precondition(of request: HTTPRequest) throws(APIError) -> Precondition {
        guard let tags = try tags(in: request, "If-Match") else { return .any }
        if tags == [.wildcard] { return .any }
        var versions: [Int] = []
        for case .strong(let opaque) in tags {
            // Entity tags compare as opaque text: `"05"` and `"+5"` are not the tag of version 5.
            if let version = Int(opaque), version >= 0, String(version) == opaque, !versions.contains(version) {
                versions.append(version)
            }
        }
        return versions.isEmpty ? .unmatchable : .versions(versions)
    }

    /// Whether `request`'s `If-Match` lets a method act on a resource whose strong entity tag is
    /// `"opaque"`: no `If-Match`, `*`, or a list naming the tag under the strong comparison.
    ///
    /// - Throws: 400 `invalid_if_match` for an empty or malformed list or tag, or `*` in a list.
    static func ifMatchAllows(_ request: HTTPRequest, tag opaque: String) throws(APIError) -> Bool {
        guard let tags = try tags(in: request, "If-Match") else { return true }
        return tags == [.wildcard] || tags.contains(.strong(opaque))
    }

    /// `bytes` as a 200 response of `contentType` with the strong `ETag` `"opaque"`, which
    /// caches keep but must check before reuse (`Cache-Control: no-cache`), under `request`'s
    /// preconditions (RFC 9110 §13.2.2): 412 when `If-Match` names another tag, then 304 when
    /// `If-None-Match` names this one. The 304 keeps the bytes so that its `Content-Length` is
    /// the 200's, as RFC 9110 §8.6 requires; libmicrohttpd sends no body with a 304. `headers`
    /// go with both; `what` names the resource in the 412's message.
    ///
    /// - Throws: 400 for a malformed `If-Match` or `If-None-Match`; 412 `precondition_failed`.
    static func response(
        _ bytes: [UInt8], tag opaque: String, contentType: String, what: String, to request: HTTPRequest,
        headers: HTTPHeaders = [:]
    ) throws(APIError) -> HTTPResponse {
        guard try ifMatchAllows(request, tag: opaque) else {
            throw APIError(
                status: 412, code: "precondition_failed",
                message: "If-Match names another version of \(what); its tag is \"\(opaque)\".")
        }
        var headers = headers
        headers.set("ETag", "\"\(opaque)\"")
        headers.set("Cache-Control", "no-cache")
        if try ifNoneMatchNames(request, tag: opaque) {
            return HTTPResponse(status: 304, headers: headers, body: .bytes(bytes))
        }
        headers.set("Content-Type", contentType)
        return HTTPResponse(status: 200, headers: headers, body: .bytes(bytes))
    }

    /// Refuses an `If-Match` naming tags on a resource that has none: no tag can match, so
    /// the method may not act (RFC 9110 §13.1.1). `*` passes: the route itself answers 404
    /// when there is nothing there.
    ///
    /// - Throws: 400 `invalid_if_match` for a malformed list; 412 `precondition_failed`.
    static func refuseTagsOfUntagged(_ request: HTTPRequest) throws(APIError) {
        guard let tags = try tags(in: request, "If-Match"), tags != [.wildcard] else { return }
        throw APIError(
            status: 412, code: "precondition_failed", message: "This resource has no entity tag: If-Match takes only *.")
    }

    /// Whether `request`'s `If-None-Match` names a resource whose entity tag is `"opaque"`:
    /// `*`, or a list naming the tag under the weak comparison (`W/"opaque"` too).
    ///
    /// - Throws: 400 `invalid_if_none_match` for an empty or malformed list or tag, or `*` in
    ///   a list.
    static func ifNoneMatchNames(_ request: HTTPRequest, tag opaque: String) throws(APIError) -> Bool {
        guard let tags = try tags(in: request, "If-None-Match") else { return false }
        return tags == [.wildcard] || tags.contains(.strong(opaque)) || tags.contains(.weak(opaque))
    }

    /// Whether `request`'s `If-None-Match` is `*`, which asks that the resource not exist
    /// (RFC 9110 §13.1.2). A list of tags is read and checked, but asks nothing of a resource
    /// that has no entity tag.
    ///
    /// - Throws: 400 `invalid_if_none_match` for an empty or malformed list or tag, or `*` in
    ///   a list.
    static func noneMatchIsWildcard(_ request: HTTPRequest) throws(APIError) -> Bool {
        try tags(in: request, "If-None-Match") == [.wildcard]
    }

    /// The members of the list in `request`'s `header`, over one field line or several, which
    /// combine into one list; nil when the header is absent.
    ///
    /// - Throws: 400 for an empty or malformed list or tag, or `*` in a list.
    private static func tags(in request: HTTPRequest, _ header: String) throws(APIError) -> [Tag]? {
        let values = request.headers.values(for: header)
        guard !values.isEmpty else { return nil }
        var tags: [Tag] = []
        for value in values { tags += try list(in: value, header) }
        // An empty field names nothing to match: malformed, as the document's pattern says.
        guard !tags.isEmpty, !tags.contains(.wildcard) || tags.count == 1 else { throw malformed(header) }
        return tags
    }

    /// One member of an `If-Match` list.
    private enum Tag: Equatable {
        case wildcard
        case strong(String)
        case weak(String)
    }

    private static func malformed(_ header: String) -> APIError {
        let message = "\(header) must hold * or entity tags such as \"3\", separated by commas."
        return header == "If-Match" ? .badRequest("invalid_if_match", message) : .badRequest("invalid_if_none_match", message)
    }

    /// The members of one field value: `*`, or `[W/]"opaque"` separated by commas and optional
    /// spaces; empty members are skipped, as RFC 9110 §5.6.1 allows.
    private static func list(in value: String, _ header: String) throws(APIError) -> [Tag] {
        let bytes = Array(value.utf8)
        var tags: [Tag] = []
        var index = 0
        func skip(_ isSkipped: (UInt8) -> Bool) { while index < bytes.count, isSkipped(bytes[index]) { index += 1 } }
        let isSpace = { (byte: UInt8) in byte == 0x20 || byte == 0x09 }
        while true {
            skip { isSpace($0) || $0 == UInt8(ascii: ",") }
            guard index < bytes.count else { return tags }
            if bytes[index] == UInt8(ascii: "*") {
                tags.append(.wildcard)
                index += 1
            } else {
                let weak = bytes[index...].starts(with: "W/".utf8)
                if weak { index += 2 }
                guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw malformed(header) }
                index += 1
                let start = index
                // etagc: any visible byte but the quote, and bytes of non-ASCII text.
                skip { $0 == 0x21 || (0x23...0x7E).contains($0) || $0 >= 0x80 }
                guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw malformed(header) }
                let opaque = String(decoding: bytes[start..<index], as: UTF8.self)
                tags.append(weak ? .weak(opaque) : .strong(opaque))
                index += 1
            }
            skip(isSpace)
            guard index == bytes.count || bytes[index] == UInt8(ascii: ",") else { throw malformed(header) }
        }
    }
}

extension String {
    /// The text without leading and trailing spaces and tabs, as HTTP field values are read.
    var trimmingSpaces: String {
        let utf8 = self.utf8
        let isSpace = { (byte: UInt8) in byte == 0x20 || byte == 0x09 }
        // Nearly every value has nothing to trim, and stays the same string.
        if let first = utf8.first, let last = utf8.last, !isSpace(first), !isSpace(last) { return self }
        guard let first = utf8.firstIndex(where: { !isSpace($0) }), let last = utf8.lastIndex(where: { !isSpace($0) })
        else { return "" }
        return String(self[first...last])
    }
}
