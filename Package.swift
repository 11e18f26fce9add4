// swift-tools-version:6.0
import PackageDescription

/// Settings every Swift target shares: Swift 6 language mode (strict concurrency) is the
/// package default; `ExistentialAny` makes every existential visible at its use.
let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny")
]

let package = Package(
    name: "ring",
    products: [
        .executable(name: "ring", targets: ["ring"]),
        // For other packages: rings as SVG (RingCore) and PNG (RingRaster) inside their own
        // apps, tools and tests (Examples/RingExample uses both).
        .library(name: "RingCore", targets: ["RingCore"]),
        .library(name: "RingRaster", targets: ["RingRaster"]),
    ],
    targets: [
        // System headers that Swift's Glibc module leaves out (epoll, accept4, eventfd); on
        // Darwin only thread naming.
        .target(name: "CSystem"),
        // The byte classes of the URI and HTTP grammars, shared by the HTTP and query parsers.
        .target(name: "ByteGrammar", swiftSettings: swiftSettings),
        // Pure: query -> RingSpec -> geometry -> SVG bytes. No I/O.
        .target(name: "RingCore", dependencies: ["ByteGrammar", "Primitives"], swiftSettings: swiftSettings),
        // The system zlib (deflate and CRC-32 for PNG).
        .systemLibrary(name: "CZlib"),
        // The system's libcurl, for live values' fetches: opened when they first start (ccurl.c),
        // not linked, and declared in the target itself: the machines ring builds on carry
        // libcurl.so.4 (FoundationNetworking links it), not its development headers.
        .target(name: "CCurl", linkerSettings: [.linkedLibrary("dl", .when(platforms: [.linux]))]),
        // DejaVu Sans Bold's outlines for the PNG label, as a C byte array (scripts/generators/make-font-data.py).
        .target(name: "RingFontData", exclude: ["LICENSE-DejaVu.txt"]),
        // Pure: RingScene -> coverage raster -> PNG.
        .target(
            name: "RingRaster", dependencies: ["RingCore", "RingFontData", "CZlib", "Primitives"],
            swiftSettings: swiftSettings),
        // A lock box for Sendable values and the monotonic clock, shared by the server and the service.
        .target(name: "Primitives", swiftSettings: swiftSettings),
        // HTTP/1.1 over epoll (Linux) or Dispatch (anywhere); knows nothing about rings.
        .target(
            name: "HTTPServer", dependencies: ["ByteGrammar", "CSystem", "Primitives"], swiftSettings: swiftSettings),
        // The glue: routes, response cache, headers, metrics, access log, playground.
        .target(
            name: "RingService",
            dependencies: ["RingCore", "RingRaster", "HTTPServer", "CSystem", "CCurl", "Primitives"],
            // The playground's markup, embedded by scripts/generators/make-playground.py.
            exclude: ["Playground/Markup"], swiftSettings: swiftSettings),
        .executableTarget(
            name: "ring", dependencies: ["RingCore", "RingRaster", "RingService", "HTTPServer"],
            swiftSettings: swiftSettings),
        // Release-only measurements: `swift run -c release ring-bench`.
        .executableTarget(
            name: "ring-bench",
            dependencies: ["RingCore", "RingRaster", "RingService", "HTTPServer", "CZlib", "Primitives"],
            swiftSettings: swiftSettings),
        // Seeded random specs shared by the core and service suites.
        .target(name: "RingTestSupport", path: "Tests/RingTestSupport", swiftSettings: swiftSettings),
        .testTarget(
            name: "RingRasterTests", dependencies: ["RingRaster", "RingCore", "CZlib", "RingTestSupport"],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "RingCoreTests", dependencies: ["RingCore", "RingTestSupport"], swiftSettings: swiftSettings),
        .testTarget(name: "ByteGrammarTests", dependencies: ["ByteGrammar"], swiftSettings: swiftSettings),
        // A raw-socket HTTP client shared by the server and service tests.
        .target(name: "HTTPTestSupport", path: "Tests/HTTPTestSupport", swiftSettings: swiftSettings),
        .testTarget(
            name: "HTTPServerTests", dependencies: ["HTTPServer", "HTTPTestSupport", "Primitives"],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "RingServiceTests",
            dependencies: [
                "RingService", "RingCore", "RingRaster", "HTTPServer", "HTTPTestSupport", "RingTestSupport",
                "Primitives",
            ],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "ringTests",
            dependencies: ["ring", "RingCore", "RingRaster", "RingService", "HTTPServer", "HTTPTestSupport"],
            swiftSettings: swiftSettings),
    ]
)
