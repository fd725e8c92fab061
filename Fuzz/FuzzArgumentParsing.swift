// libFuzzer entry point for the CLI's argument parser; built by scripts/fuzz.sh against
// CartCLI compiled with -enable-testing. Any crash, trap or sanitizer report is a bug.
//
// The input is argv with NUL between words. Properties checked on every input: parsing the
// words against the real command tree never traps; a usage error's message is one line; help
// renders for any command reached; the global options of a parsed invocation resolve or give
// a usage error, with an empty environment and with every variable set to the input's words.

@testable import CartCLI
import CartCore

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzArgumentParsing(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let words = UnsafeBufferPointer(start: data, count: size).split(separator: 0, omittingEmptySubsequences: false)
        .map { String(decoding: $0, as: UTF8.self) }
    let parser = CommandLineParser(root: CommandTree.root)
    do {
        switch try parser.parse(words) {
        case .help(let command):
            _ = HelpFormatter.help(for: command)
        case .version:
            break
        case .run(let invocation):
            let variables = ["CART_DB", "CART_STORE", "CART_ID", "CART_BUSY_TIMEOUT"]
            let environment = Dictionary(uniqueKeysWithValues: variables.enumerated().map { index, name in
                (name, words.isEmpty ? "" : words[index % words.count])
            })
            for env in [[:], environment] {
                guard let settings = try? GlobalSettings.resolve(invocation, environment: env) else { continue }
                _ = try? Stores.registry.backend(for: settings.location)
            }
        }
    } catch {
        precondition(!error.message.contains(where: \.isNewline), "a usage error spans lines: \(error.message)")
        _ = HelpFormatter.usage(for: error.command)
    }
    return 0
}
