import Foundation
import PackagePlugin

/// Turns the numbered `.sql` files of the `Migrations` target into generated Swift, so the
/// schema ships inside the binary and `Migrations/` stays its single source of truth.
///
/// The directory is listed on every build, so an added, edited or deleted `.sql` file changes
/// the command's inputs or arguments and the generated source is rebuilt.
@main
struct EmbedMigrations: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: any Target) throws -> [Command] {
        let directory = target.directoryURL
        let sqlFiles = try FileManager.default
            .contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "sql" }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
        let output = context.pluginWorkDirectoryURL.appending(path: "EmbeddedMigrations.swift")
        return [
            .buildCommand(
                displayName: "Embedding \(sqlFiles.count) migrations from \(target.name)",
                executable: try context.tool(named: "EmbedMigrationsTool").url,
                arguments: [output.path] + sqlFiles.map(\.path),
                inputFiles: sqlFiles,
                outputFiles: [output]
            )
        ]
    }
}
