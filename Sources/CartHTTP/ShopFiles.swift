import CartCore
import HTTPServer

/// The browser shop: the static files in `Sources/CartHTTP/Shop`, embedded at build time.
/// `/` is its page and `/shop/NAME` each of its files, with a content type by extension, a
/// strong `ETag` that a client must revalidate (`Cache-Control: no-cache`, 304 when it still
/// matches), and headers that keep the page to its own files: a Content-Security-Policy that
/// allows scripts, styles, images and connections from this origin only (no inline code, no
/// framing, DOM sinks that take only Trusted Types), `nosniff`, and no `Referer`, since a
/// page's address can carry its cart ID.
///
/// The files are not API resources and are not in `docs/openapi.yaml`.
enum ShopFiles {
    /// Where the files are in the package, and so their names among the embedded resources.
    static let folder = "Sources/CartHTTP/Shop/"

    /// The headers every shop file is served with.
    static let securityHeaders: HTTPHeaders = [
        "Content-Security-Policy":
            "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; "
            + "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'; "
            + "require-trusted-types-for 'script'; trusted-types 'none'",
        "Referrer-Policy": "same-origin",
        "X-Frame-Options": "DENY",
        "Cross-Origin-Opener-Policy": "same-origin",
        "Cross-Origin-Resource-Policy": "same-origin",
    ]

    /// The answer to `request` when its path names a shop file (`segments`, as decoded); nil
    /// when it names none, for the API to route.
    ///
    /// - Throws: what `EmbeddedResource.response(to:contentType:)` throws.
    static func response(to request: HTTPRequest, path segments: [String]) throws(APIError) -> HTTPResponse? {
        let name: String
        switch segments.count {
        case 0: name = "index.html"
        case 2 where segments[0] == "shop": name = segments[1]
        default: return nil
        }
        guard let file = EmbeddedResources.all[folder + name] else { return nil }
        guard request.method == "GET" || request.method == "HEAD" else {
            return APIError.methodNotAllowed(request.method, allowed: "GET, HEAD").response
        }
        var response = try file.response(to: request, contentType: contentType(of: name))
        for (field, value) in securityHeaders { response.headers.set(field, value) }
        return response
    }

    /// The media type for a file name's extension.
    static func contentType(of name: String) -> String {
        let suffix = name.split(separator: ".").last.map(String.init) ?? ""
        switch suffix {
        case "html": return "text/html; charset=utf-8"
        case "css": return "text/css; charset=utf-8"
        case "js": return "text/javascript; charset=utf-8"
        case "svg": return "image/svg+xml"
        case "png": return "image/png"
        default: return "application/octet-stream"
        }
    }
}
