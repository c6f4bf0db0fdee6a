// swift-tools-version:6.2
import PackageDescription

/// Every layer of the library, lowest first.
let layers = ["TeardownBase", "TeardownContent", "TeardownMedia", "TeardownBuild", "TeardownInbox"]
let kit = layers.map { Target.Dependency.target(name: $0) }

/// A layer of the library: it depends on every layer before it and on `others`.
func layer(_ name: String, _ others: [Target.Dependency], plugins: [Target.PluginUsage] = []) -> Target {
    .target(name: name, dependencies: layers.prefix { $0 != name }.map { .target(name: $0) } + others, plugins: plugins)
}

let yams = Target.Dependency.product(name: "Yams", package: "Yams")
let zip = Target.Dependency.product(name: "ZIPFoundation", package: "ZIPFoundation")
let system = Target.Dependency.product(name: "SystemPackage", package: "swift-system")
let grdb = Target.Dependency.product(name: "GRDB", package: "GRDB.swift")

let package = Package(
    name: "Teardown",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "teardown", targets: ["teardown"]),
        .library(name: "TeardownKit", targets: layers),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/weichsel/ZIPFoundation", from: "0.9.20"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-system", from: "1.8.1"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
    ],
    targets: [
        .systemLibrary(
            name: "CCmarkGFM",
            pkgConfig: "libcmark-gfm",
            providers: [.apt(["libcmark-gfm-dev", "libcmark-gfm-extensions-dev"])]
        ),
        // libvips' headers, for CTeardownImage, which opens the library itself on first use:
        // only GLib's flags are taken, so nothing links libvips and its hundred libraries.
        .systemLibrary(
            name: "CVips",
            pkgConfig: "glib-2.0",
            providers: [.apt(["libvips-dev"])]
        ),
        // Image decoding, resizing and saving over libvips, whose API is variadic and full of
        // glib types: Swift sees a small plain header.
        .target(name: "CTeardownImage", dependencies: ["CVips"]),
        // Linux calls Swift cannot reach directly (renameat2, statx), behind a plain C header.
        .target(name: "CTeardownSystem"),
        // SHA-256 and MD5 from the system's libcrypto, opened on first use: swift-crypto
        // compiles its own copy of BoringSSL, a third of a fresh clone's first build.
        .target(name: "CTeardownDigest"),
        // Downloads from http(s) and ftp inboxes; libcurl's options are variadic, so C sets them.
        // libcurl is opened on first use, not linked.
        .target(name: "CTeardownFetch"),
        // The default theme ships inside the binary's resource bundle, so a site
        // made with `teardown new site` builds without a copy of it.
        .target(
            name: "TeardownThemes",
            path: "Themes",
            sources: ["DefaultTheme.swift"],
            resources: [.copy("default")]
        ),
        // The library, in layers the compiler keeps: each depends on every layer before it in
        // `layers` and on nothing after, and SwiftPM refuses a cycle. docs/MAP.md names every
        // folder of each.
        // Base: diagnostics, file and process support, digests, downloads; what a build counts
        // goes to the swift-metrics factory its caller passes (BuildCounters).
        layer("TeardownBase", ["CTeardownSystem", "CTeardownFetch", "CTeardownDigest", yams, zip, system,
                               .product(name: "CoreMetrics", package: "swift-metrics")]),
        // Content: the site's configuration, machines, manuals and specs as values, their
        // Markdown and templates, and the addresses every page and file is published at.
        layer("TeardownContent", ["CCmarkGFM", yams, zip, system]),
        // Media: images over libvips, their index (SQLite), and the bundles to download.
        layer("TeardownMedia", ["CTeardownImage", zip, grdb]),
        // Build: pages rendered from the content and the media, written and published at once;
        // the build store (manifests, what each page read) is SQLite, updated in place.
        // Its view models' template fields are generated from their declarations at build time.
        layer("TeardownBuild", ["TeardownThemes", system, grdb], plugins: ["TemplateFields"]),
        .plugin(name: "TemplateFields", capability: .buildTool()),
        // Inbox: community submissions taken in, reviewed and synced; the site deployed to a bucket.
        layer("TeardownInbox", ["CTeardownSystem", zip, system]),
        // The preview server lives apart from the generator, so the library stays free of a web stack.
        .target(
            name: "TeardownServe",
            dependencies: [
                "TeardownBase",
                "TeardownContent",
                "TeardownBuild",
                "TeardownInbox",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
                // inotify is read through its FileDescriptor.
                .product(name: "SystemPackage", package: "swift-system"),
            ]
        ),
        // Community intake: a web service of its own, beside the preview server.
        .target(
            name: "TeardownIntake",
            dependencies: [
                "TeardownBase",
                "TeardownContent",
                "TeardownBuild",
                "TeardownInbox",
                .product(name: "Hummingbird", package: "hummingbird"),
                // A channel handler of its own caps the connections of one address.
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                // A sync's long wait for the inbox to change ends when the service stops.
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            resources: [.copy("openapi.json")]
        ),
        .executableTarget(
            name: "teardown",
            dependencies: kit + [
                "TeardownServe",
                "TeardownIntake",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                // The servers' own log lines reach the terminal through the command line's handler.
                .product(name: "Logging", package: "swift-log"),
            ],
            // lld packs the binary's relative relocations (DT_RELR, glibc 2.36 and later): the
            // loader reads a few KB instead of 2.8 MB at every start, and a one-shot command
            // touches fewer of the binary's pages, while the binary stays position-independent.
            linkerSettings: [
                .unsafeFlags(["-use-ld=lld", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs"], .when(platforms: [.linux]))
            ]
        ),
        // Fuzz targets: libFuzzer drives them when built by `make fuzz` (-sanitize=fuzzer -DFUZZING);
        // a plain build replays saved inputs through them.
        .target(name: "CFuzzDriver"),
        .executableTarget(
            name: "teardown-fuzz",
            dependencies: kit + ["CFuzzDriver", grdb, .product(name: "Yams", package: "Yams")],
            path: "Sources/TeardownFuzz"
        ),
        .testTarget(
            name: "TeardownKitTests",
            dependencies: kit + [
                grdb,
                .product(name: "ZIPFoundation", package: "ZIPFoundation"),
                .product(name: "MetricsTestKit", package: "swift-metrics"),
            ],
            exclude: ["Fixtures"]
        ),
        .testTarget(
            name: "TeardownServeTests",
            dependencies: ["TeardownServe", .product(name: "HummingbirdTesting", package: "hummingbird")]
        ),
        .testTarget(
            name: "TeardownIntakeTests",
            dependencies: ["TeardownIntake", "TeardownInbox", "TeardownBase", .product(name: "HummingbirdTesting", package: "hummingbird")]
        ),
        .testTarget(
            name: "TeardownCLITests",
            dependencies: ["teardown"]
        ),
    ]
)
