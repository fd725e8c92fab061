/// The reader of the output went away, as when `cart orders --csv | head` has read enough.
public struct OutputClosed: Error {}
