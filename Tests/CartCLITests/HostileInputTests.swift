import Foundation
import Testing

/// Bad input through the built binary: each is refused with the right exit status and one
/// clear line on stderr (usage errors add the usage line and the help pointer), prints
/// nothing on stdout, and leaves the database's logical dump exactly as it was.
@Suite("cart binary: hostile input")
struct HostileInputTests {
    /// The starting database, made once: its bytes, to copy into each case's sandbox, and its
    /// dump, to compare each case's database with.
    struct Template: Sendable {
        let bytes: [UInt8]
        let dump: String
    }

    static let template: Template? = {
        guard let sandbox = try? CartSandbox() else { return nil }
        for arguments in [["demo"], ["add", "apple"], ["checkout"], ["add", "tea"]] {
            guard (try? sandbox.run(arguments))?.status == 0 else { return nil }
        }
        guard let data = FileManager.default.contents(atPath: sandbox.database), let dump = try? sandbox.dump() else {
            return nil
        }
        return Template(bytes: [UInt8](data), dump: dump)
    }()

    @Test("there are at least 60 hostile inputs")
    func enough() {
        #expect(HostileInput.all.count >= 60)
    }

    @Test("is refused in one clear line and changes nothing", arguments: HostileInput.all)
    func refused(_ input: HostileInput) throws {
        let template = try #require(Self.template)
        let sandbox = try CartSandbox()
        try FileManager.default.createDirectory(atPath: sandbox.path("data"), withIntermediateDirectories: true)
        try sandbox.write("data/cart.sqlite3", template.bytes)
        var arguments = input.arguments
        if let file = input.file {
            let path = try sandbox.write(file.name, file.bytes)
            arguments = arguments.map { $0 == "FILE" ? path : $0 }
        }
        let result = try sandbox.run(arguments, environment: input.environment)

        #expect(result.status == input.status, "\(result)")
        #expect(result.stdout.isEmpty, "\(result)")
        let lines = result.stderr.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(result.stderr.hasSuffix("\n"))
        #expect(lines.first?.hasPrefix("Error: ") == true, "\(result)")
        #expect(lines.first?.contains(input.message) == true, "expected '\(input.message)' in \(result)")
        #expect((lines.first?.count ?? 0) <= 300, "the line is too long to read: \(result)")
        if input.status == 64 {
            #expect(lines.count == 3 && lines[1].hasPrefix("Usage: ") && lines[2].hasPrefix("See '"), "\(result)")
        } else {
            #expect(lines.count == 1, "\(result)")
        }
        #expect(try sandbox.dump() == template.dump)
        // A refused location is not created as a file.
        if let index = arguments.firstIndex(of: "--db"), index + 1 < arguments.count {
            let db = arguments[index + 1]
            #expect(!FileManager.default.fileExists(atPath: db), "\(db) was created")
        }
    }
}
