#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// How a person types this tool again, for the commands it suggests: `cart` when that name on
/// `PATH` runs this very binary, else the path it was started by (after `swift run`, the
/// built binary's), which works as typed.
enum ProgramName {
    /// The word to type; `invokedAs` is `argv[0]`, `searchPath` the `PATH` variable.
    static func typed(invokedAs: String, searchPath: String?) -> String {
        // Without a slash, the shell found it on PATH under that very name.
        guard invokedAs.contains("/") else { return invokedAs }
        let name = String(invokedAs.split(separator: "/").last ?? "cart")
        if let own = resolved(invokedAs), let searchPath {
            for directory in searchPath.split(separator: ":") where !directory.isEmpty {
                if resolved(directory + "/" + name) == own { return name }
            }
        }
        return invokedAs
    }

    /// The canonical path of an existing file, symbolic links followed; `nil` when there is
    /// none.
    private static func resolved(_ path: String) -> String? {
        guard let pointer = realpath(path, nil) else { return nil }
        defer { free(pointer) }
        return String(cString: pointer)
    }
}
