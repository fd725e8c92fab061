/// Writing the output failed for a reason other than a reader that went away, such as
/// `cart products > /dev/full`: the person must hear of it, or they would trust a short file.
public struct OutputFailed: Error {
    /// The system's words for the cause, such as "No space left on device".
    public let reason: String

    public init(reason: String) {
        self.reason = reason
    }
}
