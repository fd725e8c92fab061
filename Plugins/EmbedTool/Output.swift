import Foundation

/// Stops the build with `message` on stderr.
func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("error: \(message)\n".utf8))
    exit(1)
}

/// Writes `source` to `path` unless the file already holds exactly that, so an unchanged
/// input does not make the compiler rebuild the target.
func write(_ source: String, to path: String) {
    guard FileManager.default.contents(atPath: path) != Data(source.utf8) else { return }
    do {
        try Data(source.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
    } catch {
        fail("cannot write \(path): \(error)")
    }
}
