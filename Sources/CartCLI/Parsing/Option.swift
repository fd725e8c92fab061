import CartCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// An option that takes a value, declared once with the type a command reads it as: the
/// parser, help, suggestions and the reference read its `spec`, and `runner[option]` its
/// value. A default is written once, in the declaration, and serves both the value and help.
///
/// ```swift
/// static let limit = Option<Int>("--limit", "n", 1...10_000, help: "At most this many orders.", default: 20)
/// static let after = Option<Int?>("--after", "number", 1...Int.max, help: "Continue after this order.")
/// let limit = try runner[OrderCommands.limit]  // 20 unless given
/// ```
///
/// `Value` is optional for an option that may be left out without a default; an option of a
/// non-optional `Value` has a default or is required (the parser refuses a command line
/// without it).
struct Option<Value: Sendable>: OptionDeclaration {
    let spec: OptionSpec
    /// Reads the value from what the parser stored.
    let reader: ValueReader<Value>

    /// Private, so that only the typed initialisers below pair a kind with a `Value`.
    private init(spec: OptionSpec, reader: ValueReader<Value>) {
        self.spec = spec
        self.reader = reader
    }
}

extension Option where Value == Int {
    /// A whole number in `range`, `defaultValue` when not given.
    init(
        _ name: String, _ placeholder: String, _ range: ClosedRange<Int>, help: String, environment: String? = nil,
        default defaultValue: Int
    ) {
        self.init(
            spec: OptionSpec(
                name: name, valueName: placeholder, kind: .integer(range), help: help, environment: environment,
                defaultText: String(defaultValue)),
            reader: .defaulted(defaultValue, \.integer))
    }

    /// A whole number in `range` that the command cannot run without.
    init(required name: String, _ placeholder: String, _ range: ClosedRange<Int>, help: String) {
        self.init(
            spec: OptionSpec(name: name, valueName: placeholder, kind: .integer(range), help: help, isRequired: true),
            reader: .required(\.integer))
    }
}

extension Option where Value == Int? {
    /// A whole number in `range`, or `nil` when not given.
    init(_ name: String, _ placeholder: String, _ range: ClosedRange<Int>, help: String, environment: String? = nil) {
        self.init(
            spec: OptionSpec(name: name, valueName: placeholder, kind: .integer(range), help: help, environment: environment),
            reader: .optional(\.integer))
    }
}

extension Option where Value == String {
    /// Text of `kind`, `defaultValue` when not given.
    init(
        _ name: String, _ placeholder: String, _ kind: TextKind = .text, help: String, environment: String? = nil,
        default defaultValue: String
    ) {
        self.init(
            spec: OptionSpec(
                name: name, valueName: placeholder, kind: kind.valueKind, help: help, environment: environment,
                defaultText: defaultValue),
            reader: .defaulted(defaultValue, \.text))
    }

    /// Text of `kind` that the command cannot run without.
    init(required name: String, _ placeholder: String, _ kind: TextKind = .text, help: String) {
        self.init(
            spec: OptionSpec(name: name, valueName: placeholder, kind: kind.valueKind, help: help, isRequired: true),
            reader: .required(\.text))
    }
}

extension Option where Value == String? {
    /// Text of `kind`, or `nil` when not given; `shownDefault` tells help what applies then,
    /// for a default that is worked out rather than written down (a path under `$HOME`).
    init(
        _ name: String, _ placeholder: String, _ kind: TextKind = .text, help: String, environment: String? = nil,
        shownDefault: String? = nil
    ) {
        self.init(
            spec: OptionSpec(
                name: name, valueName: placeholder, kind: kind.valueKind, help: help, environment: environment,
                defaultText: shownDefault),
            reader: .optional(\.text))
    }
}

extension Option where Value == Date? {
    /// A date (`YYYY-MM-DD`, midnight UTC) or an ISO 8601 instant, or `nil` when not given.
    init(_ name: String, _ placeholder: String, help: String) {
        self.init(
            spec: OptionSpec(name: name, valueName: placeholder, kind: .date, help: help),
            reader: .optional(\.date))
    }
}

extension Option where Value == UTCOffset {
    /// An offset from UTC (`+02:00`), UTC itself when not given.
    init(_ name: String, _ placeholder: String, utcOffsetHelp help: String) {
        self.init(
            spec: OptionSpec(
                name: name, valueName: placeholder, kind: .utcOffset, help: help,
                defaultText: UTCOffset.utc.description),
            reader: .defaulted(.utc) { $0.text.flatMap(UTCOffset.init(parsing:)) })
    }
}

extension Option {
    /// One of `choices`, by raw value, or `nil` when not given.
    init<Choice: RawRepresentable & Sendable>(
        _ name: String, _ placeholder: String, choices: [Choice], help: String, environment: String? = nil
    ) where Value == Choice?, Choice.RawValue == String {
        self.init(
            spec: OptionSpec(
                name: name, valueName: placeholder, kind: .choice(choices.map(\.rawValue)), help: help,
                environment: environment),
            reader: .optional { $0.text.flatMap(Choice.init(rawValue:)) })
    }
}
