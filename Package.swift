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
    // The Apple systems that have Observation, Duration and Synchronization's Mutex.
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    products: [
        .library(name: "CartCore", targets: ["CartCore"]),
        .library(name: "CartInMemory", targets: ["CartInMemory"]),
        .library(name: "CartSQLite", targets: ["CartSQLite"]),
        .library(name: "CartStore", targets: ["CartStore"]),
        .library(name: "CartPostgres", targets: ["CartPostgres"]),
        .library(name: "HTTPServer", targets: ["HTTPServer"]),
        .library(name: "CartContract", targets: ["CartContract"]),
        .library(name: "CartHTTP", targets: ["CartHTTP"]),
        .executable(name: "cart", targets: ["cart"]),
        .executable(name: "cart-bench", targets: ["cart-bench"]),
    ],
    targets: [
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        .systemLibrary(
            name: "CMicroHTTPD",
            pkgConfig: "libmicrohttpd",
            providers: [.apt(["libmicrohttpd-dev"])]
        ),
        .target(
            name: "HTTPServer",
            dependencies: ["CMicroHTTPD", "CMicroHTTPDLoader"],
            swiftSettings: strictSettings
        ),
        .target(
            name: "Hashing",
            swiftSettings: strictSettings
        ),
        .target(
            name: "StrictJSON",
            swiftSettings: strictSettings
        ),
        .systemLibrary(
            name: "CLibpq",
            pkgConfig: "libpq",
            providers: [.apt(["libpq-dev"])]
        ),
        .target(
            name: "CMicroHTTPDLoader",
            dependencies: ["CMicroHTTPD"]
        ),
        .target(
            name: "CLibpqLoader",
            dependencies: ["CLibpq"]
        ),
        .executableTarget(
            name: "EmbedTool",
            dependencies: ["Hashing"],
            path: "Plugins/EmbedTool",
            swiftSettings: strictSettings
        ),
        .plugin(
            name: "EmbedMigrations",
            capability: .buildTool(),
            dependencies: ["EmbedTool"]
        ),
        .plugin(
            name: "EmbedResources",
            capability: .buildTool(),
            dependencies: ["EmbedTool"]
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
            name: "CartInMemory",
            dependencies: ["CartCore"],
            swiftSettings: strictSettings
        ),
        .target(
            name: "CartSQLite",
            dependencies: ["CartCore", "CSQLite", "Migrations"],
            swiftSettings: strictSettings
        ),
        .target(
            name: "CartPostgres",
            dependencies: ["CartCore", "CLibpq", "CLibpqLoader", "Migrations"],
            swiftSettings: strictSettings
        ),
        .target(
            name: "CartContract",
            dependencies: ["CartCore"],
            swiftSettings: strictSettings
        ),
        .target(
            name: "CartStore",
            dependencies: ["CartCore"],
            swiftSettings: strictSettings
        ),
        .target(
            name: "CartCLI",
            dependencies: ["CartCore", "CartHTTP", "CartInMemory", "CartPostgres", "CartSQLite", "CartStore", "StrictJSON"],
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "cart",
            dependencies: ["CartCLI"],
            swiftSettings: strictSettings,
            // Release `cart` links the Swift runtime, the C++ runtime and SQLite in, so that a
            // short command's start-up loads nothing but glibc; libpq and libmicrohttpd are
            // opened on first use (CLibpqLoader, CMicroHTTPDLoader). scripts/ld-cart is the
            // linker: lld with --as-needed, the static archives, and no run path
            // (docs/BENCHMARKS.md has the measurements). Relative relocations are packed
            // (DT_RELR). Release only: test bundles link the executable's module with its
            // settings, and there is no static swift-testing.
            linkerSettings: [
                .unsafeFlags(
                    [
                        "-static-stdlib", "-use-ld=lld", "-Xclang-linker", "-static-libgcc",
                        "-Xclang-linker", "-Wno-unused-command-line-argument",
                        "-Xclang-linker", "--ld-path=\(Context.packageDirectory)/scripts/ld-cart",
                        "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs",
                    ], .when(configuration: .release)),
                .linkedLibrary("_FoundationCollections", .when(configuration: .release)),
                .linkedLibrary("_FoundationCShims", .when(configuration: .release)),
            ]
        ),
        .target(
            name: "CartHTTP",
            dependencies: ["CartCore", "HTTPServer", "Hashing", "StrictJSON"],
            exclude: ["embedded-resources.txt", "Shop"],
            swiftSettings: strictSettings,
            plugins: ["EmbedResources"]
        ),
        .target(
            name: "CartTestSupport",
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "cart-torture",
            dependencies: ["CartCore", "CartSQLite", "CartTestSupport"],
            swiftSettings: strictSettings
        ),
        .target(
            name: "RawSQLiteBaseline",
            linkerSettings: [.linkedLibrary("sqlite3")]
        ),
        .target(
            name: "RawPostgresBaseline",
            dependencies: ["CLibpq"],
            linkerSettings: [.linkedLibrary("pq")]
        ),
        .executableTarget(
            name: "raw-cart-http-baseline",
            path: "Sources/RawCartHTTPBaseline",
            linkerSettings: [.linkedLibrary("microhttpd"), .linkedLibrary("sqlite3")]
        ),
        .executableTarget(
            name: "cart-bench",
            dependencies: [
                "CartCore", "CartInMemory", "CartPostgres", "CartSQLite", "CartTestSupport", "Migrations", "RawPostgresBaseline",
                "RawSQLiteBaseline",
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "HTTPServerTests",
            dependencies: ["HTTPServer", "CartTestSupport"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "CartHTTPTests",
            dependencies: [
                "CartHTTP", "CartCore", "CartInMemory", "CartSQLite", "CartTestSupport", "Hashing", "HTTPServer", "StrictJSON",
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "StrictJSONTests",
            dependencies: ["StrictJSON"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "CartCoreTests",
            dependencies: ["CartCore", "CartInMemory"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "CartInMemoryTests",
            dependencies: ["CartContract", "CartCore", "CartInMemory"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "CartCLITests",
            // Depending on the executable makes `swift test` build the binary the end-to-end
            // tests run.
            dependencies: ["CartCLI", "CartCore", "CartTestSupport", "CSQLite", "StrictJSON", "cart"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "CartSQLiteTests",
            // cart-torture runs service operations in a child process, where a trap or a
            // reader's dropped privileges cannot reach the test process.
            dependencies: ["CartContract", "CartCore", "CartSQLite", "CSQLite", "CartTestSupport", "cart-torture"],
            exclude: ["Fixtures"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "CartPostgresTests",
            // The built `cart` binary runs against PostgreSQL as users run it.
            dependencies: [
                "CartContract", "CartCore", "CartInMemory", "CartPostgres", "CartSQLite", "CartTestSupport", "cart",
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "CartStoreTests",
            dependencies: ["CartCore", "CartHTTP", "CartInMemory", "CartPostgres", "CartSQLite", "CartStore", "CartTestSupport"],
            swiftSettings: strictSettings
        ),
    ],
    swiftLanguageModes: [.v6]
)
