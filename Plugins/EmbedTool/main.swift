// The build tool behind the EmbedMigrations and EmbedResources plugins: turns files of the
// package into generated Swift, so they ship inside the binary.
//
// Usage: EmbedTool migrations OUTPUT.swift [--dialect NAME NNNN_name.sql...]...
//        EmbedTool resources OUTPUT.swift PACKAGE_DIR FILE...

let arguments = CommandLine.arguments.dropFirst()
guard let mode = arguments.first, let output = arguments.dropFirst().first else {
    fail("usage: EmbedTool migrations|resources OUTPUT.swift ...")
}
switch mode {
case "migrations": embedMigrations(into: output, arguments.dropFirst(2))
case "resources": embedResources(into: output, arguments.dropFirst(2))
default: fail("unknown mode '\(mode)'; use migrations or resources")
}
