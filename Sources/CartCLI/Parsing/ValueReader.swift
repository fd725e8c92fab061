/// How a declared `Option` or `Argument` turns what the parser stored into its typed value.
struct ValueReader<Value: Sendable>: Sendable {
    /// The value when the option or argument is left out: the default, `.some(nil)` for an
    /// optional `Value`, `nil` when it is required.
    let absent: Value?
    /// The value of a word the parser accepted for the declared kind; `nil` only when the kind
    /// and `Value` disagree, which the declarations' initialisers rule out.
    let convert: @Sendable (ParsedValue) -> Value?

    /// The value for what the parser stored (`nil` when it was left out); `nil` for a required
    /// value that is missing.
    func value(from parsed: ParsedValue?) -> Value? {
        guard let parsed else { return absent }
        return convert(parsed)
    }
}

extension ValueReader {
    /// A value that is `defaultValue` when left out.
    static func defaulted(_ defaultValue: Value, _ convert: @escaping @Sendable (ParsedValue) -> Value?) -> Self {
        Self(absent: defaultValue, convert: convert)
    }

    /// A value that must be given.
    static func required(_ convert: @escaping @Sendable (ParsedValue) -> Value?) -> Self {
        Self(absent: nil, convert: convert)
    }

    /// A value that is `nil` when left out.
    static func optional<Wrapped>(_ convert: @escaping @Sendable (ParsedValue) -> Wrapped?) -> Self
    where Value == Wrapped? {
        Self(absent: .some(nil), convert: { convert($0).map(Optional.some) })
    }
}
