// swift-tools-version: 6.1
import PackageDescription

/// Settings every Junction target shares: Swift 6 strict concurrency, explicit `any`,
/// and imports that stay internal unless a file says otherwise.
let strictSettings: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "Junction",
    platforms: [.macOS(.v13), .iOS(.v16)],
    products: [
        .library(name: "Junction", targets: ["Junction"]),
        .library(name: "JunctionCore", targets: ["JunctionCore"]),
        .library(name: "JunctionLua", targets: ["JunctionLua"]),
        .library(name: "JunctionShipping", targets: ["JunctionShipping"]),
        .library(name: "JunctionSwiftUI", targets: ["JunctionSwiftUI"]),
        .library(name: "JunctionPresenterTesting", targets: ["JunctionPresenterTesting"]),
        .library(name: "JunctionArtifact", targets: ["JunctionArtifact"]),
        .library(name: "JunctionAuthoring", targets: ["JunctionAuthoring"]),
        .library(name: "JunctionTooling", targets: ["JunctionTooling"]),
        .executable(name: "junction", targets: ["JunctionCLI"]),
    ],
    // Where Lua comes from; exactly one of the two (docs/apple-platforms.md).
    traits: [
        .trait(
            name: "SystemLua",
            description: "Link the system's Lua 5.4 through pkg-config lua5.4 (Linux: liblua5.4-dev)."
        ),
        .trait(
            name: "PackagedLua",
            description: """
                Compile Lua 5.4 from the CLua54 package, which scripts/lua-package makes from an \
                official release tarball (checked against its SHA-256): for Apple platforms.
                """
        ),
        .default(enabledTraits: ["SystemLua"]),
    ],
    dependencies: [
        // Resolved only with the `PackagedLua` trait; an app mirrors or overrides it with the
        // package scripts/lua-package writes (docs/apple-platforms.md).
        .package(url: "https://github.com/junction-router/clua54", "5.4.4"..<"5.5.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-crypto", "3.12.3"..<"5.0.0"),
    ],
    targets: [
        // The `jl_` shims for Lua's macros, over the Lua the trait names.
        .target(
            name: "CLua",
            dependencies: [
                .target(name: "CLuaSystem", condition: .when(traits: ["SystemLua"])),
                .product(name: "CLua54", package: "clua54", condition: .when(traits: ["PackagedLua"])),
            ]
        ),
        // The system Lua 5.4 (Debian: liblua5.4-dev), for the `SystemLua` trait.
        .systemLibrary(
            name: "CLuaSystem",
            pkgConfig: "lua5.4",
            providers: [.apt(["liblua5.4-dev"]), .brew(["lua"])]
        ),
        // The system libyaml (Debian: libyaml-dev), read through its event API. Authoring
        // only: `scripts/check-linkage` fails when `Junction` or `JunctionArtifact` reaches it.
        .systemLibrary(
            name: "CLibYAML",
            pkgConfig: "yaml-0.1",
            providers: [.apt(["libyaml-dev"]), .brew(["libyaml"])]
        ),
        // The system zlib (Debian: zlib1g-dev; in every Apple SDK): the device compresses its
        // decision-log uploads, the CLI reads gzip corpora and writes the collector's files.
        .systemLibrary(
            name: "CZlib",
            pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"]), .brew(["zlib"])]
        ),
        // The system libcurl (Debian: libcurl4-openssl-dev): the updater's HTTP transport on
        // Linux, where URLSession kept reading and buffering after an exchange was refused.
        .systemLibrary(
            name: "CCurl",
            pkgConfig: "libcurl",
            providers: [.apt(["libcurl4-openssl-dev"])]
        ),
        .target(
            name: "JunctionCore",
            swiftSettings: strictSettings
        ),
        // The sandbox's prelude is Lua in Prelude/, embedded as byte arrays (`PackageResources`).
        .target(
            name: "JunctionLua",
            dependencies: ["CLua", "JunctionCore", .product(name: "Logging", package: "swift-log")],
            resources: [.embedInCode("Prelude")],
            swiftSettings: strictSettings
        ),
        // The router: the decider, the policy snapshot in force, the page stack. No Crypto,
        // no artifact, no file or network I/O: shipping is `JunctionShipping`'s.
        .target(
            name: "Junction",
            dependencies: ["JunctionCore", "JunctionLua", .product(name: "Logging", package: "swift-log")],
            swiftSettings: strictSettings
        ),
        // The page stack as `@Observable` state for SwiftUI (iOS 17, macOS 14: Observation).
        .target(
            name: "JunctionSwiftUI",
            dependencies: ["Junction"],
            swiftSettings: strictSettings
        ),
        // The presenter contract as a suite an app runs against its own presenter, in its tests.
        .target(
            name: "JunctionPresenterTesting",
            dependencies: ["Junction"],
            swiftSettings: strictSettings
        ),
        // The device's shipping side: the store, the installer and its acceptance pipeline,
        // the updater and its transports. It activates policies in a `Junction.ActivePolicy`.
        .target(
            name: "JunctionShipping",
            dependencies: [
                "Junction", "JunctionArtifact", .product(name: "Logging", package: "swift-log"),
                .target(name: "CCurl", condition: .when(platforms: [.linux])),
                // gzip for the decision log's upload batches.
                "CZlib",
                // SHA-256 of a downloaded artifact, checked against its pointer before anything else reads it.
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: strictSettings
        ),
        // The shipping artifact: the `.jbundle` container, Ed25519 keys and the keyring.
        // Crypto, and JunctionCore's canonical JSON for headers and channel pointers.
        .target(
            name: "JunctionArtifact",
            dependencies: ["JunctionCore", .product(name: "Crypto", package: "swift-crypto")],
            swiftSettings: strictSettings
        ),
        // Authoring: YAML folders read into bundles, for the CLI, tests and apps that load
        // folders during development. A device reads artifacts and never links this.
        .target(
            name: "JunctionAuthoring",
            dependencies: ["CLibYAML", "JunctionCore", "JunctionLua", .product(name: "Logging", package: "swift-log")],
            swiftSettings: strictSettings
        ),
        // Tooling over a decider: the bundle checker, decision diffs, capability files and corpus
        // reading, for the CLI and CI. A device never links it (`scripts/check-linkage`).
        .target(
            name: "JunctionTooling",
            dependencies: ["Junction", "JunctionCore", "JunctionLua", "CZlib"],
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "JunctionCLI",
            dependencies: [
                "Junction",
                "JunctionShipping",
                "JunctionArtifact",
                "JunctionAuthoring",
                "JunctionTooling",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings
        ),
        // What several test targets share: a seeded generator and a log that tests read back.
        .target(
            name: "JunctionTestSupport",
            dependencies: ["Junction", .product(name: "Logging", package: "swift-log")],
            path: "Tests/JunctionTestSupport",
            exclude: ["hostile_http_server.py", "flaky_collector.py"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "JunctionCoreTests",
            dependencies: ["JunctionCore", "JunctionAuthoring", "JunctionTestSupport", "JunctionFuzzTargets"],
            resources: [.copy("Fixtures")],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "JunctionLuaTests",
            dependencies: [
                "JunctionLua", "JunctionCore", "JunctionAuthoring", "JunctionTestSupport", "JunctionFuzzTargets",
                "CLua",
            ],
            swiftSettings: strictSettings
        ),
        // A child process that commits to a BundleStore in a loop, for the test that kills it.
        .executableTarget(
            name: "JunctionStoreProbe",
            dependencies: ["JunctionShipping", .product(name: "Crypto", package: "swift-crypto")],
            path: "Tests/JunctionStoreProbe",
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "JunctionTests",
            dependencies: ["Junction", "JunctionAuthoring", "JunctionTestSupport", "JunctionPresenterTesting"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "JunctionSwiftUITests",
            dependencies: ["JunctionSwiftUI", "Junction", "JunctionAuthoring", "JunctionTestSupport"],
            swiftSettings: strictSettings
        ),
        // A declared shape of the UIKit API docs/router.md's presenter uses (names and
        // signatures, bodies never run), and that presenter, compiled against it.
        .target(name: "UIKit", path: "Tests/UIKitShape", swiftSettings: strictSettings),
        .target(
            name: "DocsUIKitPresenter",
            dependencies: ["Junction", "UIKit"],
            path: "Tests/DocsUIKitPresenter",
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "DocsUIKitPresenterTests",
            dependencies: ["DocsUIKitPresenter", "JunctionTestSupport"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "JunctionPresenterTestingTests",
            dependencies: ["JunctionPresenterTesting", "Junction"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "JunctionShippingTests",
            dependencies: [
                "JunctionShipping", "Junction", "JunctionArtifact", "JunctionAuthoring", "JunctionTestSupport",
                "JunctionStoreProbe", .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "JunctionToolingTests",
            dependencies: [
                "JunctionTooling", "Junction", "JunctionAuthoring", "JunctionShipping", "JunctionTestSupport",
            ],
            swiftSettings: strictSettings
        ),
        // The output of `junction codegen` for rules/example/routes.yaml, compiled with every
        // warning an error, and its round trip through the matcher.
        .testTarget(
            name: "JunctionGeneratedRoutesTests",
            dependencies: ["Junction", "JunctionAuthoring", "JunctionTestSupport"],
            swiftSettings: strictSettings + [.unsafeFlags(["-warnings-as-errors"])]
        ),
        .testTarget(
            name: "JunctionArtifactTests",
            dependencies: ["JunctionArtifact", .product(name: "Crypto", package: "swift-crypto")],
            swiftSettings: strictSettings
        ),
        // Fuzzing (scripts/fuzz, docs/security.md): the targets — each a decoder of untrusted
        // bytes and the properties it keeps — and their runner: libFuzzer's driver when
        // scripts/fuzz builds it with -DFUZZING and -sanitize=fuzzer,address, else a replayer
        // of saved inputs. JunctionFuzzTests replays every seed and regression input.
        .target(
            name: "JunctionFuzzTargets",
            dependencies: [
                "Junction", "JunctionCore", "JunctionLua", "JunctionArtifact", "JunctionAuthoring",
                "JunctionShipping", "JunctionTooling", "CLua", .product(name: "Crypto", package: "swift-crypto"),
            ],
            path: "Fuzz/Targets",
            swiftSettings: strictSettings
        ),
        .target(name: "CFuzzerDriver", path: "Fuzz/CFuzzerDriver"),
        .executableTarget(
            name: "JunctionFuzz",
            dependencies: ["JunctionFuzzTargets", "CFuzzerDriver"],
            path: "Fuzz/Runner",
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "JunctionFuzzTests",
            dependencies: ["JunctionFuzzTargets"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "JunctionCLITests",
            dependencies: [
                "JunctionCLI", "Junction", "JunctionShipping", "JunctionAuthoring", "JunctionArtifact",
                "JunctionTooling", "JunctionTestSupport",
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            resources: [.copy("Fixtures"), .copy("Snapshots")],
            swiftSettings: strictSettings
        ),
    ]
)
