import Foundation
import PackagePlugin

/// Turns the numbered `.sql` files in each dialect folder of the `Migrations` target
/// (`Migrations/SQLite/`, `Migrations/PostgreSQL/`) into generated Swift, so the schema ships
/// inside the binary and `Migrations/` stays its single source of truth.
///
/// The folders are listed on every build, so an added, edited or deleted `.sql` file changes
/// the command's inputs or arguments and the generated source is rebuilt.
@main
struct EmbedMigrations: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: any Target) throws -> [Command] {
        let files = FileManager.default
        let folders = try files.contentsOfDirectory(at: target.directoryURL, includingPropertiesForKeys: nil)
            .filter { (try? $0.resourceValues(forKeys: [.isDirectoryKey]).isDirectory) == true }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
        var arguments: [String] = []
        var inputs: [URL] = []
        for folder in folders {
            let sqlFiles = try files.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
                .filter { $0.pathExtension == "sql" }
                .sorted { $0.lastPathComponent < $1.lastPathComponent }
            arguments += ["--dialect", folder.lastPathComponent] + sqlFiles.map(\.path)
            inputs += sqlFiles
        }
        let output = context.pluginWorkDirectoryURL.appending(path: "EmbeddedMigrations.swift")
        return [
            .buildCommand(
                displayName: "Embedding \(inputs.count) migrations from \(target.name)",
                executable: try context.tool(named: "EmbedTool").url,
                arguments: ["migrations", output.path] + arguments,
                inputFiles: inputs,
                outputFiles: [output]
            )
        ]
    }
}
