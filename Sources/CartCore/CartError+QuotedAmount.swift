extension CartError {
    /// The error quoting `text`, the amount as the user wrote it, when it is an
    /// `invalidAmount`; any other error as it is. The service knows a price only as a value
    /// and quotes one it refuses in its own form (`100000000.00` for `100000000`), which a
    /// front end that still has the user's text puts back.
    package func quotingAmount(_ text: String) -> CartError {
        guard case .invalidAmount(_, let reason) = self else { return self }
        return .invalidAmount(text, reason: reason)
    }
}
