import Foundation
import PackagePlugin

/// Embeds files of the package in a target's binary: the target's `embedded-resources.txt`
/// lists package-relative paths, one a line (`#` starts a comment), each a file or a folder
/// whose files are all taken, hidden ones excepted. The generated `EmbeddedResources.all` maps
/// each file's package-relative path (`docs/openapi.yaml`) to its bytes and their SHA-256.
///
/// The list and the folders are read on every build, so an added, edited or deleted file
/// changes the command's inputs or arguments and the generated source is rebuilt.
@main
struct EmbedResources: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: any Target) throws -> [Command] {
        let list = target.directoryURL.appending(path: "embedded-resources.txt")
        let root = context.package.directoryURL
        var files: [URL] = []
        for line in try String(contentsOf: list, encoding: .utf8).split(whereSeparator: \.isNewline) {
            let entry = line.trimmingCharacters(in: .whitespaces)
            guard !entry.isEmpty, !entry.hasPrefix("#") else { continue }
            files += try Self.files(at: root.appending(path: entry))
        }
        let output = context.pluginWorkDirectoryURL.appending(path: "EmbeddedResources.swift")
        return [
            .buildCommand(
                displayName: "Embedding \(files.count) resources in \(target.name)",
                executable: try context.tool(named: "EmbedTool").url,
                arguments: ["resources", output.path, root.path] + files.map(\.path),
                inputFiles: [list] + files,
                outputFiles: [output]
            )
        ]
    }

    /// The file at `url`, or every file below it, sorted, when it is a folder.
    static func files(at url: URL) throws -> [URL] {
        guard (try url.resourceValues(forKeys: [.isDirectoryKey])).isDirectory == true else { return [url] }
        let found = FileManager.default.enumerator(
            at: url, includingPropertiesForKeys: [.isRegularFileKey], options: [.skipsHiddenFiles])
        return (found?.allObjects as? [URL] ?? [])
            .filter { (try? $0.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true }
            .sorted { $0.path < $1.path }
    }
}
