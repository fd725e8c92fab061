/// A positional argument declared once with the type a command reads it as: the parser, help
/// and the reference read its `spec`, and `runner[argument]` its value.
///
/// ```swift
/// static let sku = Argument<String>("sku", help: "The product's SKU.")
/// static let quantity = Argument<Int>("quantity", 1...Int.max, help: "How many units to add.", default: 1)
/// let quantity = try runner[CartCommands.addedQuantity]  // 1 unless given
/// ```
///
/// An argument without a default is required.
struct Argument<Value: Sendable>: ArgumentDeclaration {
    let spec: ArgumentSpec
    /// Reads the value from what the parser stored.
    let reader: ValueReader<Value>

    /// Private, so that only the typed initialisers below pair a kind with a `Value`.
    private init(spec: ArgumentSpec, reader: ValueReader<Value>) {
        self.spec = spec
        self.reader = reader
    }
}

extension Argument where Value == String {
    /// Text of `kind` that the command cannot run without.
    init(_ name: String, _ kind: TextKind = .text, help: String) {
        self.init(spec: ArgumentSpec(name, kind.valueKind, help: help), reader: .required(\.text))
    }
}

extension Argument where Value == String? {
    /// Text of `kind`, or `nil` when left out.
    init(optional name: String, _ kind: TextKind = .text, help: String) {
        self.init(spec: ArgumentSpec(name, kind.valueKind, help: help, optional: true), reader: .optional(\.text))
    }
}

extension Argument where Value == Int {
    /// A whole number in `range` that the command cannot run without.
    init(_ name: String, _ range: ClosedRange<Int>, help: String) {
        self.init(spec: ArgumentSpec(name, .integer(range), help: help), reader: .required(\.integer))
    }

    /// A whole number in `range`, `defaultValue` when left out.
    init(_ name: String, _ range: ClosedRange<Int>, help: String, default defaultValue: Int) {
        self.init(
            spec: ArgumentSpec(
                name, .integer(range), help: help, optional: true, defaultText: String(defaultValue)),
            reader: .defaulted(defaultValue, \.integer))
    }
}
