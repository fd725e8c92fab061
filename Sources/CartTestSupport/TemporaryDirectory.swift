#if canImport(FoundationEssentials)
package import FoundationEssentials
#else
package import Foundation
#endif

/// A fresh directory under the system's temporary directory for one test or run, removed
/// with everything in it when released.
package final class TemporaryDirectory: Sendable {
    /// The directory.
    package let url: URL

    /// Creates the directory.
    ///
    /// - Throws: the file system's error.
    package init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("cart-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// The directory's path.
    package var path: String { url.path }

    /// The path of a file inside the directory.
    package func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }
}
