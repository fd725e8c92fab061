// swift-tools-version: 6.1
import PackageDescription

/// A package that adopts the cart library as a stranger would: by path, using only its
/// products. Its tests are the adopter's whole experience: encode a Cart, run a CartService
/// over CartInMemory, and run CartContract against a backend of its own.
let package = Package(
    name: "AdopterPackage",
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    dependencies: [
        .package(name: "cart", path: "../..")
    ],
    targets: [
        .testTarget(
            name: "AdopterTests",
            dependencies: [
                .product(name: "CartCore", package: "cart"),
                .product(name: "CartInMemory", package: "cart"),
                .product(name: "CartContract", package: "cart"),
            ],
            swiftSettings: [
                .enableUpcomingFeature("ExistentialAny"),
                .enableUpcomingFeature("MemberImportVisibility"),
                .enableUpcomingFeature("InternalImportsByDefault"),
            ]
        )
    ],
    swiftLanguageModes: [.v6]
)
