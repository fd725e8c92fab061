import CartCore
import Foundation
@testable import CartHTTP
import Testing

@Suite("The OpenAPI document and the route table agree")
struct OpenAPIDocumentTests {
    /// An operation as the document states it.
    struct Operation: Hashable, CustomStringConvertible {
        let method: String
        let path: String
        let operationID: String
        let access: CartRoute.Access

        var description: String { "\(method) \(path) \(operationID) \(access.rawValue)" }
    }

    /// The operations under `paths:`, read from the document's layout: a path at two spaces,
    /// a method at four, its `operationId` and `security` at six.
    static func documentedOperations() -> [Operation] {
        let text = String(decoding: CartAPI.openAPIDocument, as: UTF8.self)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let start = lines.firstIndex(of: "paths:"), let end = lines.firstIndex(of: "components:") else { return [] }
        var operations: [Operation] = []
        var path = ""
        var method: String?
        var operationID = ""
        var security: [String] = []
        func finish() {
            guard let method else { return }
            let access: CartRoute.Access? =
                switch security {
                case ["[]"]: .everyone
                case ["{}", "adminToken: []"]: .cart
                case ["adminToken: []"]: .admin
                default: nil
                }
            // An operation without a known security requirement matches no route.
            let name = access == nil ? "\(operationID) with security \(security)" : operationID
            operations.append(Operation(method: method, path: path, operationID: name, access: access ?? .everyone))
        }
        var inSecurity = false
        for line in lines[start..<end] {
            if line.hasPrefix("  /"), line.hasSuffix(":"), !line.hasPrefix("   ") {
                finish()
                method = nil
                path = String(line.dropFirst(2).dropLast())
            } else if line.hasPrefix("    "), !line.hasPrefix("     "), line.hasSuffix(":"),
                ["get:", "put:", "post:", "delete:", "patch:"].contains(line.trimmingSpaces)
            {
                finish()
                method = String(line.trimmingSpaces.dropLast()).uppercased()
                operationID = ""
                security = []
                inSecurity = false
            } else if line.hasPrefix("      operationId: ") {
                operationID = String(line.dropFirst("      operationId: ".count))
            } else if line == "      security: []" {
                security = ["[]"]
            } else if line == "      security:" {
                inSecurity = true
            } else if inSecurity, line.hasPrefix("        - ") {
                security.append(String(line.dropFirst("        - ".count)))
            } else if line.hasPrefix("      "), !line.hasPrefix("       ") {
                inSecurity = false
            }
        }
        finish()
        return operations
    }

    @Test("every route is documented with its operationId and security, and every documented operation is routed")
    func routesMatchDocument() {
        let routed = Set(CartAPI.routes.map { Operation(method: $0.method, path: $0.path, operationID: $0.operationID, access: $0.access) })
        let documented = Self.documentedOperations()
        #expect(documented.count == CartAPI.routes.count)
        #expect(Set(documented).subtracting(routed).map(\.description).sorted() == [], "documented but not routed")
        #expect(routed.subtracting(documented).map(\.description).sorted() == [], "routed but not documented")
    }

    @Test("docs/HTTP_API.md's table of routes lists exactly the routes, with their access")
    func routesInGuide() throws {
        let guide = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("docs/HTTP_API.md")
        let rows = try String(contentsOf: guide, encoding: .utf8).split(separator: "\n").filter {
            $0.hasPrefix("| `GET` ") || $0.hasPrefix("| `PUT` ") || $0.hasPrefix("| `POST` ") || $0.hasPrefix("| `DELETE` ")
        }
        let listed = rows.map { row in row.split(separator: "|").prefix(3).map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ") }
        let routed = CartAPI.routes.map { "`\($0.method)` `\($0.path)` \($0.access.rawValue)" }
        #expect(listed == routed)
    }

    @Test("the route table has no two routes for one method and path, and names each operation once")
    func routesAreDistinct() {
        let keys = CartAPI.routes.map { "\($0.method) \($0.path)" }
        #expect(Set(keys).count == keys.count)
        #expect(Set(CartAPI.routes.map(\.operationID)).count == CartAPI.routes.count)
    }

    @Test("the document lists exactly the core's cart problem codes")
    func problemCodes() {
        let text = String(decoding: CartAPI.openAPIDocument, as: UTF8.self)
        let codes = CartProblem.Code.allCases.map(\.rawValue).joined(separator: ", ")
        #expect(text.contains("code: { type: string, enum: [\(codes)] }"))
    }
}
