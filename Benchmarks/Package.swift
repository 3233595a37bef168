// swift-tools-version: 6.1
import PackageDescription

// A package of its own so that routing-kit, which the benchmarks compare against,
// never enters the library's dependency graph.
let package = Package(
    name: "JunctionBenchmarks",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "junction-bench", targets: ["JunctionBench"]),
    ],
    dependencies: [
        .package(name: "Junction", path: ".."),
        .package(url: "https://github.com/vapor/routing-kit", from: "4.9.0"),
    ],
    targets: [
        .executableTarget(
            name: "JunctionBench",
            dependencies: [
                .product(name: "JunctionCore", package: "Junction"),
                .product(name: "JunctionLua", package: "Junction"),
                .product(name: "RoutingKit", package: "routing-kit"),
            ],
            swiftSettings: [
                .swiftLanguageMode(.v6),
                .enableUpcomingFeature("ExistentialAny"),
                .enableUpcomingFeature("InternalImportsByDefault"),
            ]
        ),
    ]
)
