// The `Migrations` target holds the schema as numbered `.sql` files. The EmbedMigrations
// build-tool plugin turns them into `EmbeddedMigrations` (`.sqlite`, `.postgresql`); this
// file only gives the target a Swift source so SwiftPM builds it.
