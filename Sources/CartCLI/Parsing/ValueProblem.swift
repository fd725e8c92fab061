/// Why a value does not fit its kind, as a phrase for an error message.
struct ValueProblem: Error, Equatable {
    let phrase: String
    /// Whether the value is a number above the largest allowed.
    let isTooLarge: Bool

    init(_ phrase: String, isTooLarge: Bool = false) {
        self.phrase = phrase
        self.isTooLarge = isTooLarge
    }
}
