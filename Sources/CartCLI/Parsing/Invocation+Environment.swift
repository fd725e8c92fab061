extension Invocation {
    /// Whether the option's environment variable is set to something (an empty variable counts
    /// as unset, as shells make `CART_DB= cart …` easy to write).
    func isSet(_ option: some OptionDeclaration, in environment: [String: String]) -> Bool {
        rawVariable(of: option.spec, in: environment) != nil
    }

    /// The option's value from its environment variable, else its default.
    ///
    /// - Throws: `UsageError` naming the variable when its value is malformed.
    func variable<Value>(of option: Option<Value>, in environment: [String: String]) throws(UsageError) -> Value {
        var parsed: ParsedValue?
        if let variable = option.spec.environment, let raw = rawVariable(of: option.spec, in: environment) {
            parsed = try CommandLineParser.convert(raw, kind: option.spec.kind, label: variable, command)
        }
        guard let value = option.reader.value(from: parsed) else {
            throw UsageError("Missing expected argument '\(option.spec.synopsis)'.", command: command)
        }
        return value
    }

    /// The option's value from the command line, else its environment variable, else its
    /// default: flag beats variable beats default.
    ///
    /// - Throws: `UsageError` naming the variable when its value is malformed.
    func value<Value>(of option: Option<Value>, environment: [String: String]) throws(UsageError) -> Value {
        isGiven(option) ? try value(of: option) : try variable(of: option, in: environment)
    }

    private func rawVariable(of spec: OptionSpec, in environment: [String: String]) -> String? {
        guard let variable = spec.environment, let raw = environment[variable], !raw.isEmpty else { return nil }
        return raw
    }
}
