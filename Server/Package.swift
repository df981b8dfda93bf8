// swift-tools-version:6.0
// The responder backend as an HTTP service. A package of its own so that the root package stays
// free of system libraries beyond SQLite: it depends on the root by path and on two system C
// libraries, libmicrohttpd (the HTTP/1.1 server) and libpq (PostgreSQL's client); no Swift
// package dependencies.
import Foundation
import PackageDescription

// A path dependency's identity is its directory's name, which is whatever the clone is called.
let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
let rootPackage = root.lastPathComponent

let package = Package(
    name: "ResponderServer",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "responder-server", targets: ["responder-server"]),
        .executable(name: "responder-load", targets: ["responder-load"])
    ],
    dependencies: [.package(path: "..")],
    targets: [
        .systemLibrary(
            name: "CMicroHTTPD", pkgConfig: "libmicrohttpd",
            providers: [.apt(["libmicrohttpd-dev"]), .brew(["libmicrohttpd"])]),
        .systemLibrary(name: "CLibPQ", pkgConfig: "libpq", providers: [.apt(["libpq-dev"]), .brew(["libpq"])]),
        // The service: request decoding, the stores (SQLite, PostgreSQL), leadership, the routes,
        // the control-room page. The decisions are the Responders library's.
        .target(
            name: "ResponderService",
            dependencies: [
                "CMicroHTTPD", "CLibPQ",
                .product(name: "Responders", package: rootPackage),
                .product(name: "ResponderStore", package: rootPackage),
                .product(name: "Geodesy", package: rootPackage),
                .product(name: "Drawing", package: rootPackage),
                .product(name: "FastCSV", package: rootPackage),
                .product(name: "JSON", package: rootPackage),
                .product(name: "CommandSupport", package: rootPackage)
            ]),
        .executableTarget(
            name: "responder-server",
            dependencies: [
                "ResponderService", .product(name: "CommandSupport", package: rootPackage)
            ]),
        .executableTarget(
            name: "responder-load",
            dependencies: [
                "ResponderService", .product(name: "Responders", package: rootPackage),
                .product(name: "ResponderStore", package: rootPackage),
                .product(name: "JSON", package: rootPackage),
                .product(name: "CommandSupport", package: rootPackage)
            ]),
        .testTarget(
            name: "ResponderServiceTests",
            dependencies: [
                "ResponderService", "responder-server",
                .product(name: "Responders", package: rootPackage),
                .product(name: "CommandSupport", package: rootPackage)
            ])
    ]
)
