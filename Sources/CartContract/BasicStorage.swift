import CartCore

/// A backend's storage seen through its basic requirements only: every fast path answers with
/// the protocols' default, built from the basics, so that the contract can compare a
/// backend's own fast paths with what they must equal.
final class BasicStorage: StorageForwarding {
    let base: any CartStorageWriter

    init(_ base: any CartStorageWriter) {
        self.base = base
    }
}
