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

    /// The statuses each operation's `responses:` lists, by `operationId`, read from the
    /// document's layout: `responses:` at six spaces, each status in quotes at eight.
    static func documentedStatuses() -> [String: Set<Int>] {
        let text = String(decoding: CartAPI.openAPIDocument, as: UTF8.self)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let start = lines.firstIndex(of: "paths:"), let end = lines.firstIndex(of: "components:") else { return [:] }
        var statuses: [String: Set<Int>] = [:]
        var operationID = ""
        var inResponses = false
        for line in lines[start..<end] {
            if line.hasPrefix("      operationId: ") {
                operationID = String(line.dropFirst("      operationId: ".count))
            } else if line == "      responses:" {
                inResponses = true
            } else if inResponses, let match = line.prefixMatch(of: #/        "([0-9]{3})":/#) {
                statuses[operationID, default: []].insert(Int(match.output.1) ?? 0)
            } else if !line.hasPrefix("       ") {
                inResponses = false
            }
        }
        return statuses
    }

    /// The statuses of ``documentedStatuses()``, for checking every answer the tests see.
    static let statuses = documentedStatuses()

    /// The package's root directory: this file is in `Tests/CartHTTPTests`.
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The `enum` of `ErrorDetail.code`, read from the document's layout: the schema at four
    /// spaces, its `code` property at eight, `enum:` at ten and each code at twelve.
    static func documentedErrorCodes() -> [String] {
        let text = String(decoding: CartAPI.openAPIDocument, as: UTF8.self)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let schema = lines.firstIndex(of: "    ErrorDetail:") else { return [] }
        let body = lines[(schema + 1)...].prefix { $0.isEmpty || $0.hasPrefix("     ") }
        guard let property = body.firstIndex(of: "        code:") else { return [] }
        let entries = body[(property + 1)...].prefix { $0.hasPrefix("          ") }
        guard let list = entries.firstIndex(of: "          enum:") else { return [] }
        let item = "            - "
        return entries[(list + 1)...].prefix { $0.hasPrefix(item) }.map { String($0.dropFirst(item.count)) }
    }

    /// The codes of `ErrorDetail.code`, for checking every answer the tests see.
    static let errorCodes = Set(documentedErrorCodes())

    /// The error codes in the source of `Sources/CartHTTP` and `Sources/HTTPServer`, found by
    /// the shapes that give one: `badRequest("code", …)`, `code: "code"` of an `APIError`, a
    /// body written as `{"error":{"code":"code",…}}`, a category's fallback
    /// `case .category: ("code", "message")`, the statuses of the server's own answers
    /// (`case 413: "code"`, `default: "code"`), and the `case .name: "code"` lines of
    /// `CartError+Code.swift`. Other snake_case strings, such as query parameter names, are not
    /// codes.
    static func sourceErrorCodes() throws -> Set<String> {
        let shapes: [Regex<(Substring, Substring)>] = [
            #/badRequest\(\s*"([a-z][a-z0-9_]*)"/#,
            #/code: "([a-z][a-z0-9_]*)"/#,
            #/"code":"([a-z][a-z0-9_]*)"/#,
            #/case \.\w+: \("([a-z][a-z0-9_]*)", "/#,
            #/case [0-9]{3}: "([a-z][a-z0-9_]*)"/#,
            #/default: "([a-z][a-z0-9_]*)"/#,
        ]
        let cartErrorCase = #/case \.\w+: "([a-z][a-z0-9_]*)"/#
        var codes: Set<String> = []
        for folder in ["Sources/CartHTTP", "Sources/HTTPServer"] {
            let directory = packageRoot.appendingPathComponent(folder)
            let files = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: nil)?
                .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" } ?? []
            #expect(!files.isEmpty, "no Swift files in \(folder)")
            for file in files {
                let text = try String(contentsOf: file, encoding: .utf8)
                for shape in shapes {
                    for match in text.matches(of: shape) { codes.insert(String(match.output.1)) }
                }
                if file.lastPathComponent == "CartError+Code.swift" {
                    for match in text.matches(of: cartErrorCase) { codes.insert(String(match.output.1)) }
                }
            }
        }
        return codes
    }

    /// The codes in the first column of the tables under "## Error codes" in docs/HTTP_API.md:
    /// each row holds a code in backticks, its status, and when it is answered.
    static func guideErrorCodes() throws -> [String] {
        let text = try String(contentsOf: packageRoot.appendingPathComponent("docs/HTTP_API.md"), encoding: .utf8)
        let lines = text.split(separator: "\n").map(String.init)
        guard let start = lines.firstIndex(of: "## Error codes") else { return [] }
        let section = lines[(start + 1)...].prefix { !$0.hasPrefix("## ") }
        return section.compactMap { line in
            guard let match = line.wholeMatch(of: #/\| `([a-z][a-z0-9_]*)` \| [0-9]{3} \| .+ \|/#) else { return nil }
            return String(match.output.1)
        }
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
        let guide = Self.packageRoot.appendingPathComponent("docs/HTTP_API.md")
        let rows = try String(contentsOf: guide, encoding: .utf8).split(separator: "\n").filter {
            row in ["GET", "PUT", "PATCH", "POST", "DELETE"].contains { row.hasPrefix("| `\($0)` ") }
        }
        let listed = rows.map { row in row.split(separator: "|").prefix(3).map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ") }
        let routed = CartAPI.routes.map { "`\($0.method)` `\($0.path)` \($0.access.rawValue)" }
        #expect(listed == routed)
    }

    @Test("every routed operation lists its statuses, a success among them, for the tests' answers to be checked against")
    func statusesListed() {
        for route in CartAPI.routes {
            let listed = Self.statuses[route.operationID] ?? []
            #expect(listed.contains { (200..<300).contains($0) }, "\(route.operationID) lists \(listed.sorted())")
            #expect(listed.contains(400), "\(route.operationID) lists \(listed.sorted())")
        }
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

    @Test("ErrorDetail.code lists exactly the error codes the server's source gives")
    func errorCodesMatchSource() throws {
        let documented = Self.documentedErrorCodes()
        let found = try Self.sourceErrorCodes()
        // Codes that only some of the shapes find, so that a shape that stops matching fails here.
        let samples: Set = [
            "malformed_json", "unauthorized", "route_not_found", "refused", "body_too_large", "internal_error", "empty_cart",
        ]
        #expect(found.isSuperset(of: samples), "the scan missed \(samples.subtracting(found).sorted())")
        #expect(documented.count == Set(documented).count, "a code is listed twice")
        #expect(found.subtracting(documented).sorted() == [], "in the source but not in the document")
        #expect(Set(documented).subtracting(found).sorted() == [], "in the document but not in the source")
    }

    @Test("docs/HTTP_API.md's tables of error codes list each code of ErrorDetail.code once")
    func errorCodesInGuide() throws {
        let listed = try Self.guideErrorCodes()
        let documented = Set(Self.documentedErrorCodes())
        #expect(!documented.isEmpty)
        #expect(listed.count == Set(listed).count, "a code has two rows")
        #expect(documented.subtracting(listed).sorted() == [], "in the document but not in the guide")
        #expect(Set(listed).subtracting(documented).sorted() == [], "in the guide but not in the document")
    }
}
