import CartCore
import CartTestSupport
import Foundation
import Testing

@testable import CartCLI

@Suite("Parser under random input")
struct ParserPropertyTests {
    /// Words that reach deep into the parser, mixed with garbage.
    static let vocabulary: [String] = {
        var words: [String] = [
            "--", "-", "-h", "--help", "--version", "=", "--=", "-1", "0", "1", "2", "99", "1.5", "abc",
        ]
        func visit(_ spec: CommandSpec) {
            // `watch` and `serve` run until they are interrupted, and `products export FILE` and
            // `db copy --to FILE` would write a file wherever the tests run.
            let left = [WatchCommand.spec, ServeCommand.spec, ProductExport.spec, DatabaseCopyCommand.spec]
            guard !left.contains(where: { $0.name == spec.name }) else { return }
            words.append(spec.name)
            // Only `--db=memory:` below: a random `--db` value would open a file wherever the
            // tests run.
            for option in spec.options + GlobalOptions.all where option.name != "--store" && option.name != "--db" {
                words += [option.name, option.name + "=", option.name + "=1"]
            }
            spec.subcommands.forEach(visit)
        }
        visit(CommandTree.root)
        words += [
            "--db=memory:", "--store=memory", "apple", "2026-01-01", "2026-02-30", "day", "product", "\u{0}", "\n",
            "é", "🛒", "２",
        ]
        return words
    }()

    static func garbage(_ random: inout SplitMix64) -> String {
        let length = Int.random(in: 0...12, using: &random)
        var scalars = String.UnicodeScalarView()
        for _ in 0..<length {
            let pick = Int.random(in: 0...3, using: &random)
            let value: UInt32 =
                switch pick {
                case 0: UInt32.random(in: 0...0x7F, using: &random)
                case 1: UInt32.random(in: 0x80...0xD7FF, using: &random)
                case 2: [0x2D, 0x3D, 0x2028, 0x202E, 0xFEFF][Int.random(in: 0...4, using: &random)]
                default: UInt32.random(in: 0xE000...0x10FFFF, using: &random)
                }
            if let scalar = Unicode.Scalar(value) { scalars.append(scalar) }
        }
        return String(scalars)
    }

    @Test("random argv never crashes and always ends in success, a failure or a usage error, each reported once")
    func randomArgv() throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("cart-fuzz-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: home) }
        // HOME inside a private folder: a command line that reached the default file could not
        // touch real data.
        let environment = ["CART_DB": "memory:", "HOME": home.path]
        var random = SplitMix64(seed: 0xC0FFEE)
        for round in 0..<3000 {
            let count = Int.random(in: 0...7, using: &random)
            let argv = (0..<count).map { _ in
                Bool.random(using: &random)
                    ? Self.vocabulary[Int.random(in: 0..<Self.vocabulary.count, using: &random)]
                    : Self.garbage(&random)
            }
            let result = InProcess(argv, environment: environment)
            let context = "round \(round): \(argv.debugDescription)\n\(result.stderr)"
            #expect([0, 1, 64].contains(result.status), "\(context)")
            if result.status == 0 {
                #expect(result.errorLines.isEmpty, "\(context)")
            } else {
                #expect(result.errorLines.count == 1, "\(context)")
                if result.status == 1 {
                    // The in-memory store's note follows only success: a failure is its one error line.
                    #expect(result.stderr.split(separator: "\n").count == 1, "\(context)")
                }
            }
            if result.status == 64 {
                let lines = result.stderr.split(separator: "\n", omittingEmptySubsequences: false)
                #expect(
                    lines.count == 4 && lines[1].hasPrefix("Usage: cart") && lines[2].hasPrefix("See 'cart"),
                    "\(context)")
            }
        }
    }
}
