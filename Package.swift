// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "Teardown",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "teardown", targets: ["teardown"]),
        .library(name: "TeardownKit", targets: ["TeardownKit"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
        .package(url: "https://github.com/hummingbird-project/swift-mustache", from: "2.1.1"),
    ],
    targets: [
        .systemLibrary(
            name: "CCmarkGFM",
            pkgConfig: "libcmark-gfm",
            providers: [.apt(["libcmark-gfm-dev", "libcmark-gfm-extensions-dev"])]
        ),
        // The default theme ships inside the binary's resource bundle, so a site
        // made with `teardown new site` builds without a copy of it.
        .target(
            name: "TeardownThemes",
            path: "Themes",
            sources: ["DefaultTheme.swift"],
            resources: [.copy("default")]
        ),
        .target(
            name: "TeardownKit",
            dependencies: [
                "CCmarkGFM",
                "TeardownThemes",
                .product(name: "Yams", package: "Yams"),
                .product(name: "Mustache", package: "swift-mustache"),
            ]
        ),
        .executableTarget(
            name: "teardown",
            dependencies: [
                "TeardownKit",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(
            name: "TeardownKitTests",
            dependencies: ["TeardownKit"],
            exclude: ["Fixtures"]
        ),
        .testTarget(
            name: "TeardownCLITests",
            dependencies: ["teardown"]
        ),
    ]
)
