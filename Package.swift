// swift-tools-version:6.1
import PackageDescription

/// Ferry: a local-first sync kernel, its reference server, its CLI and its domain plugins.
///
/// `Plugins/` holds Ferry's *domain* plugins (ordinary library targets such as
/// `RecipesPlugin`), not SwiftPM package plugins.
let package = Package(
    name: "Ferry",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "ferry", targets: ["ferry"]),
        // Devices and the reference server in one process on virtual time, through faults, seed by seed.
        .executable(name: "ferry-sim", targets: ["ferry-sim"]),
        .library(name: "SyncKernel", targets: ["SyncKernel"]),
        .library(name: "SyncKernelCLI", targets: ["SyncKernelCLI"]),
        .library(name: "SyncKernelTesting", targets: ["SyncKernelTesting"]),
        .library(name: "FerryServer", targets: ["FerryServer"]),
        .library(name: "FerryServerTesting", targets: ["FerryServerTesting"]),
        // `FerryMain.run(plugins:)`: a `ferry` of your own, with your plugins beside the shipped ones.
        .library(name: "FerryCLI", targets: ["FerryCLI"]),
    ] + domainPlugins.map { .library(name: "\($0)Plugin", targets: ["\($0)Plugin"]) },
    dependencies: [
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-auth", from: "2.5.0"),
        .package(url: "https://github.com/apple/swift-crypto", from: "4.5.2"),
        // `/metrics` in Prometheus's text format, on the reference server and on a runner's live view.
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        // The reference server's PostgreSQL storage engine (`ferry serve --database postgres://...`).
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        // TLS to PostgreSQL (`sslmode` in the database URL).
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        // `swift package generate-documentation --target SyncKernel` (SyncKernel.docc).
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        .target(name: "FerryHashing", dependencies: [.product(name: "Crypto", package: "swift-crypto")]),
        // SQLite's process-wide settings, which only C can make (`sqlite3_config` takes varargs).
        .target(name: "CFerrySQLite", linkerSettings: [.linkedLibrary("sqlite3")]),
        .target(
            name: "SyncKernel",
            dependencies: [
                "CFerrySQLite",
                "FerryHashing",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Yams", package: "Yams"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        .target(
            name: "SyncKernelCLI",
            dependencies: ["SyncKernel", .product(name: "ArgumentParser", package: "swift-argument-parser")]
        ),
        .target(
            name: "SyncKernelTesting",
            dependencies: [
                "SyncKernel", .product(name: "GRDB", package: "GRDB.swift"), .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .target(
            name: "FerryServer",
            dependencies: [
                "CFerrySQLite",
                "FerryHashing",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdBcrypt", package: "hummingbird-auth"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ]
        ),
        .target(
            name: "FerryServerTesting",
            dependencies: [
                "FerryServer",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                // The stand-ins for peers the reference server does not play (TMDB, a file host).
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ]
        ),
        .target(
            name: "FerryCLI",
            dependencies: [
                "SyncKernel",
                "SyncKernelCLI",
                "FerryServer",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ] + domainPlugins.map { .target(name: "\($0)Plugin") }
        ),
        .executableTarget(name: "ferry", dependencies: ["FerryCLI"]),
        .target(
            name: "FerrySimulation",
            dependencies: [
                "SyncKernel", "SyncKernelTesting", "FerryServer", "AuthPlugin", "RecipesPlugin", "MoviesPlugin",
                "FamilyPlugin", "AudioPlugin", .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .executableTarget(
            name: "ferry-sim",
            dependencies: ["FerrySimulation", "SyncKernelTesting", .product(name: "ArgumentParser", package: "swift-argument-parser")]
        ),
        .testTarget(name: "FerrySimulationTests", dependencies: ["FerrySimulation", "SyncKernelTesting"]),
        .testTarget(
            name: "SyncKernelTests",
            dependencies: [
                "SyncKernel", "SyncKernelTesting", "FerryServerTesting",
            ]
        ),
        .testTarget(
            name: "FerryServerTests",
            dependencies: [
                "FerryServer", "FerryServerTesting", "SyncKernelTesting",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
            ]
        ),
        .testTarget(
            name: "PluginGuideTests",
            dependencies: [
                "SyncKernel", "SyncKernelTesting", "FerryServerTesting", .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
        .testTarget(
            name: "FerryCLITests",
            dependencies: [
                "FerryCLI", "SyncKernel", "SyncKernelTesting", "FerryServer", "FerryServerTesting",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        .executableTarget(
            name: "ferry-bench",
            dependencies: [
                "SyncKernel", "SyncKernelTesting", "FerryServer", "RecipesPlugin",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                // The bare server the health loop is compared with (`--serve-bare`).
                .product(name: "Hummingbird", package: "hummingbird"),
            ],
            path: "Benchmarks/FerryBench"
        ),
    ] + domainPlugins.flatMap(domainPluginTargets)
)

/// The domain plugins that ship with Ferry; each lives in `Plugins/<Name>`.
var domainPlugins: [String] { ["Auth", "Recipes", "Movies", "Family", "Audio"] }

/// Declares a domain plugin's library target and its test target.
func domainPluginTargets(_ name: String) -> [Target] {
    [
        .target(
            name: "\(name)Plugin",
            dependencies: [
                "SyncKernel",
                "SyncKernelCLI",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Plugins/\(name)/Sources"
        ),
        .testTarget(
            name: "\(name)PluginTests",
            dependencies: [
                .target(name: "\(name)Plugin"), "SyncKernel", "SyncKernelTesting", "FerryServer", "FerryServerTesting",
            ],
            path: "Plugins/\(name)/Tests"
        ),
    ]
}

for target in package.targets where target.type != .system {
    var settings = target.swiftSettings ?? []
    settings.append(.enableUpcomingFeature("ExistentialAny"))
    target.swiftSettings = settings
}
