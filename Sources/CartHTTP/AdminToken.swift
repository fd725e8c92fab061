import Hashing
import HTTPServer

/// The admin token as the server keeps it: only its SHA-256, which a request's bearer
/// token's SHA-256 is compared with in constant time, so neither the comparison's time nor
/// the token's length tell an attacker anything.
struct AdminToken: Sendable {
    private let digest: [UInt8]

    /// The fewest characters a token has.
    static let minimumLength = 16

    /// Keeps `token`.
    ///
    /// - Throws: ``CartHTTPServerError/invalidAdminToken(_:)`` for a token shorter than
    ///   ``minimumLength`` or holding anything but printable ASCII without spaces.
    init(_ token: String) throws(CartHTTPServerError) {
        guard token.utf8.count >= Self.minimumLength else {
            let count = token.utf8.count
            throw .invalidAdminToken("it has \(count) character\(count == 1 ? "" : "s"); use at least \(Self.minimumLength)")
        }
        if let byte = token.utf8.first(where: { $0 <= 0x20 || $0 >= 0x7F }) {
            // A line break usually comes from a secret file read whole (a container's secret).
            let found = byte == 0x0A || byte == 0x0D ? "a line break" : byte == 0x20 ? "a space" : "a character that is not printable ASCII"
            throw .invalidAdminToken("it holds \(found); use printable ASCII characters without spaces")
        }
        digest = SHA256.digest(Array(token.utf8))
    }

    /// How a request's `Authorization` header stands with the token.
    enum Credentials: Equatable {
        /// No `Authorization` header with the Bearer scheme.
        case missing
        /// A bearer token that is not the admin token.
        case wrong
        /// More than one `Authorization` header.
        case repeated
        /// The admin token.
        case valid
    }

    /// Reads `Authorization: Bearer TOKEN` (the scheme in any case) from `request`.
    func credentials(of request: HTTPRequest) -> Credentials {
        let values = request.headers.values(for: "Authorization")
        guard values.count == 1, let value = values.first else { return values.isEmpty ? .missing : .repeated }
        let parts = value.trimmingSpaces.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return .missing }
        let given = String(parts[1]).trimmingSpaces
        return ConstantTime.equal(SHA256.digest(Array(given.utf8)), digest) ? .valid : .wrong
    }
}
