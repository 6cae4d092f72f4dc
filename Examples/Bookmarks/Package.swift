// swift-tools-version:6.1
import PackageDescription

/// An example of Ferry used as a framework: a "bookmarks" domain of its own, and a
/// `ferry` executable with it beside the plugins Ferry ships.
let package = Package(
    name: "Bookmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        // In a package of your own: .package(url: "<Ferry's repository>", from: "<version>").
        .package(name: "Ferry", path: "../.."),
        // The kernel hands plugins GRDB's `Database` in each transaction.
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
    ],
    targets: [
        .target(
            name: "BookmarksPlugin",
            dependencies: [
                .product(name: "SyncKernel", package: "Ferry"),
                .product(name: "SyncKernelCLI", package: "Ferry"),
                .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
        .executableTarget(
            name: "bookmarks-ferry",
            dependencies: ["BookmarksPlugin", .product(name: "FerryCLI", package: "Ferry")]
        ),
        .testTarget(
            name: "BookmarksPluginTests",
            dependencies: [
                "BookmarksPlugin",
                .product(name: "SyncKernelTesting", package: "Ferry"),
                .product(name: "FerryServer", package: "Ferry"),
                .product(name: "FerryServerTesting", package: "Ferry"),
            ]
        ),
    ]
)
