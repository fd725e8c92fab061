import Testing

/// One bad input for the built binary: the arguments, an optional file they name, the exit
/// status it must end with, and a fragment its one `Error:` line must contain.
struct HostileInput: Sendable, CustomTestStringConvertible {
    /// A file written in the sandbox before the run; `FILE` in the arguments is its path.
    struct File: Sendable {
        let name: String
        let bytes: [UInt8]
    }

    let label: String
    let arguments: [String]
    let file: File?
    let environment: [String: String]
    let status: Int32
    let message: String

    /// A usage error (exit 64): the line is followed by the usage line and the help pointer.
    static func usage(_ label: String, _ arguments: [String], _ message: String, env: [String: String] = [:])
        -> HostileInput
    {
        HostileInput(label: label, arguments: arguments, file: nil, environment: env, status: 64, message: message)
    }

    /// A refusal by a rule or a bad file (exit 1): exactly one line on stderr.
    static func refused(_ label: String, _ arguments: [String], _ message: String) -> HostileInput {
        HostileInput(label: label, arguments: arguments, file: nil, environment: [:], status: 1, message: message)
    }

    /// `products import FILE` with these bytes, refused with exit 1.
    static func badImport(_ label: String, _ name: String, _ bytes: [UInt8], _ message: String) -> HostileInput {
        HostileInput(
            label: label, arguments: ["products", "import", "FILE"], file: File(name: name, bytes: bytes),
            environment: [:], status: 1, message: message)
    }

    /// `products import FILE` with this text.
    static func badImport(_ label: String, _ name: String, _ text: String, _ message: String) -> HostileInput {
        badImport(label, name, Array(text.utf8), message)
    }

    var testDescription: String { label }
}
