/// A command's change committed, but writing its output failed: the person must know the
/// change was made, or a retry would make it again.
struct SavedButNotShown: Error {
    /// The system's words for why the output failed, such as "No space left on device".
    let reason: String
}
