// swift-tools-version:6.0
import PackageDescription

// A package that uses ring as a library, as a Vapor or Hummingbird app, a command-line tool or
// a test suite would: it depends on the repository by path and imports the products RingCore
// (query → spec → SVG) and RingRaster (scene → PNG). `.ci/run` builds and runs it.
let package = Package(
    name: "RingExample",
    dependencies: [
        .package(name: "ring", path: "../..")
    ],
    targets: [
        .executableTarget(
            name: "ring-example",
            dependencies: [
                .product(name: "RingCore", package: "ring"),
                .product(name: "RingRaster", package: "ring"),
            ])
    ]
)
