// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "fieldhouse",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "fieldhouse", targets: ["fieldhouse"])
    ],
    dependencies: [
        .package(url: "https://github.com/vapor/vapor.git", from: "4.122.3"),
        .package(url: "https://github.com/vapor/fluent.git", from: "4.13.0"),
        .package(url: "https://github.com/vapor/fluent-sqlite-driver.git", from: "4.9.0"),
        .package(url: "https://github.com/vapor/fluent-postgres-driver.git", from: "2.14.0"),
        .package(url: "https://github.com/vapor/leaf.git", from: "4.5.2"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.81.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.6"),
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.1"),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        // Tests only: pages rendered from hand-built contexts, compared with files under __Snapshots__.
        .package(url: "https://github.com/pointfreeco/swift-snapshot-testing", from: "1.19.7"),
    ],
    targets: [
        .systemLibrary(
            name: "CDiscount",
            path: "Sources/CDiscount",
            pkgConfig: "libmarkdown",
            providers: [.apt(["libmarkdown2-dev"])]
        ),
        .systemLibrary(
            name: "CZlib",
            path: "Sources/CZlib",
            providers: [.apt(["zlib1g-dev"])]
        ),
        // Photos: decoding, EXIF rotation, re-encoding without metadata, thumbnails, HEIC.
        .systemLibrary(
            name: "CVips",
            path: "Sources/CVips",
            pkgConfig: "vips",
            providers: [.apt(["libvips-dev"])]
        ),
        .target(
            name: "FieldhouseKit",
            dependencies: ["CDiscount", "CZlib", "CVips"]
        ),
        .target(
            name: "App",
            dependencies: [
                "FieldhouseKit",
                .product(name: "Vapor", package: "vapor"),
                .product(name: "Fluent", package: "fluent"),
                .product(name: "FluentSQLiteDriver", package: "fluent-sqlite-driver"),
                .product(name: "FluentPostgresDriver", package: "fluent-postgres-driver"),
                .product(name: "Leaf", package: "leaf"),
                // Streaming uploads to disk without blocking an event loop; Vapor itself uses it.
                .product(name: "_NIOFileSystem", package: "swift-nio"),
                // STARTTLS and TLS for the small SMTP client (no SMTP package builds here).
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                // Counters and timers per app, exposed at /metrics in the Prometheus text format.
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                // Map tiles from the tile server, read no further than a tile's size.
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
            ]
        ),
        .executableTarget(
            name: "fieldhouse",
            dependencies: ["App"]
        ),
        .testTarget(
            name: "FieldhouseKitTests",
            dependencies: ["FieldhouseKit"]
        ),
        .testTarget(
            name: "AppTests",
            dependencies: [
                "App", .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "SnapshotTesting", package: "swift-snapshot-testing"),
            ],
            exclude: ["__Snapshots__"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
