// swift-tools-version: 6.1
import PackageDescription

// A package of its own so that routing-kit, which the benchmarks compare against,
// never enters the library's dependency graph.
let package = Package(
    name: "JunctionBenchmarks",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "junction-bench", targets: ["JunctionBench"])
    ],
    dependencies: [
        .package(name: "Junction", path: ".."),
        .package(url: "https://github.com/vapor/routing-kit", from: "4.9.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.5.0"),
    ],
    targets: [
        // The system Lua 5.4 again, for the plain-Lua peer of `decide.*` (a state of its
        // own with the stock C API and no sandbox); Junction's CLua is not a product.
        .systemLibrary(name: "CLuaPeer", pkgConfig: "lua5.4", providers: [.apt(["liblua5.4-dev"]), .brew(["lua"])]),
        // The allocator's count of bytes in use (glibc's mallinfo2), for `memory.*`.
        .target(name: "CMallocStats"),
        .executableTarget(
            name: "JunctionBench",
            dependencies: [
                "CLuaPeer",
                "CMallocStats",
                .product(name: "Junction", package: "Junction"),
                .product(name: "JunctionCore", package: "Junction"),
                .product(name: "JunctionLua", package: "Junction"),
                .product(name: "JunctionShipping", package: "Junction"),
                .product(name: "JunctionArtifact", package: "Junction"),
                .product(name: "JunctionAuthoring", package: "Junction"),
                .product(name: "RoutingKit", package: "routing-kit"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: [
                .swiftLanguageMode(.v6),
                .enableUpcomingFeature("ExistentialAny"),
                .enableUpcomingFeature("InternalImportsByDefault"),
            ]
        ),
    ]
)
