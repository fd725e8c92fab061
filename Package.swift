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
            swiftSettings: strictSettings,
            // The Swift runtime linked in: loading and binding a dozen shared Swift libraries
            // was most of a short command's start-up (issue 6, workload 6: `cart orders`
            // 6.8 -> 4.1 ms). lld, because gold warns about glibc's mktemp inside
            // libFoundationEssentials.a; that archive also needs the two libraries below,
            // which the driver does not add by itself. Release only: test bundles link the
            // executable's module with its settings, and there is no static swift-testing.
            linkerSettings: [
                .unsafeFlags(["-static-stdlib", "-use-ld=lld"], .when(configuration: .release)),
                .linkedLibrary("_FoundationCollections", .when(configuration: .release)),
                .linkedLibrary("_FoundationCShims", .when(configuration: .release)),
            ]
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
