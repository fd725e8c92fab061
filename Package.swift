// swift-tools-version: 6.1
import PackageDescription

/// Strict settings shared by every target: Swift 6 language mode comes from the tools version;
/// these make existentials explicit and imports honest.
let strictSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "cart",
    products: [
        .library(name: "CartCore", targets: ["CartCore"]),
        .library(name: "CartSQLite", targets: ["CartSQLite"]),
        .library(name: "CartStore", targets: ["CartStore"]),
        .executable(name: "cart", targets: ["cart"]),
        .executable(name: "cart-bench", targets: ["cart-bench"]),
    ],
    targets: [
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        .executableTarget(
            name: "EmbedMigrationsTool",
            path: "Plugins/EmbedMigrationsTool",
            swiftSettings: strictSettings
        ),
        .plugin(
            name: "EmbedMigrations",
            capability: .buildTool(),
            dependencies: ["EmbedMigrationsTool"]
        ),
        .target(
            name: "Migrations",
            path: "Migrations",
            swiftSettings: strictSettings,
            plugins: ["EmbedMigrations"]
        ),
        .target(
            name: "CartCore",
            swiftSettings: strictSettings
        ),
        .target(
            name: "CartSQLite",
            dependencies: ["CartCore", "CSQLite", "Migrations"],
            swiftSettings: strictSettings
        ),
        .target(
            name: "CartStore",
            dependencies: ["CartCore"],
            swiftSettings: strictSettings
        ),
        .target(
            name: "CartCLI",
            dependencies: ["CartCore", "CartSQLite", "CartStore"],
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "cart",
            dependencies: ["CartCLI"],
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "cart-torture",
            dependencies: ["CartCore", "CartSQLite"],
            swiftSettings: strictSettings
        ),
        .target(
            name: "RawSQLiteBaseline",
            linkerSettings: [.linkedLibrary("sqlite3")]
        ),
        .executableTarget(
            name: "cart-bench",
            dependencies: ["CartCore", "CartSQLite", "Migrations", "RawSQLiteBaseline"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "CartCoreTests",
            dependencies: ["CartCore"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "CartContractTests",
            dependencies: ["CartCore", "CartSQLite"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "CartCLITests",
            // Depending on the executable makes `swift test` build the binary the end-to-end
            // tests run.
            dependencies: ["CartCLI", "CartCore", "cart"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "CartSQLiteTests",
            dependencies: ["CartCore", "CartSQLite", "CSQLite"],
            exclude: ["Fixtures"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "CartStoreTests",
            dependencies: ["CartCore", "CartSQLite", "CartStore"],
            swiftSettings: strictSettings
        ),
    ],
    swiftLanguageModes: [.v6]
)
