// swift-tools-version:6.0
// A dependency-free geofencing engine: geodesy, S2-compatible cells, spatial indexes.
// "packages: none": this manifest declares no package dependencies, and must never gain one.
import PackageDescription

let package = Package(
    name: "Geofence",
    // The Apple platforms the package supports (Linux needs no entry).
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9), .visionOS(.v1)],
    products: [
        .library(name: "Geodesy", targets: ["Geodesy"]),
        .library(name: "GeoCells", targets: ["GeoCells"]),
        .library(name: "FastCSV", targets: ["FastCSV"]),
        .library(name: "SpatialIndex", targets: ["SpatialIndex"]),
        .library(name: "Geofencing", targets: ["Geofencing"]),
        .library(name: "POIData", targets: ["POIData"]),
        .library(name: "Simulation", targets: ["Simulation"]),
        .library(name: "Drawing", targets: ["Drawing"]),
        .library(name: "Reporting", targets: ["Reporting"]),
        .executable(name: "geofence", targets: ["geofence"]),
        .executable(name: "geofence-bench", targets: ["GeofenceBench"]),
    ],
    targets: [
        // Lower layers know nothing of higher ones:
        // Geodesy <- GeoCells <- SpatialIndex <- Geofencing <- Simulation <- executables;
        // FastCSV <- POIData (with Geodesy, SpatialIndex, Geofencing); FastCSV <- Simulation.
        .target(name: "Geodesy"),
        .target(name: "GeoCells", dependencies: ["Geodesy"]),
        .target(name: "FastCSV"),
        .target(name: "SpatialIndex", dependencies: ["Geodesy", "GeoCells"]),
        .target(name: "Geofencing", dependencies: ["Geodesy", "GeoCells", "SpatialIndex"]),
        .target(name: "POIData", dependencies: ["FastCSV", "Geodesy", "SpatialIndex", "Geofencing"]),
        .target(name: "Simulation", dependencies: ["Geodesy", "FastCSV", "SpatialIndex", "Geofencing"]),
        // SVG maps and charts; knows only Geodesy and GeoCells, imports no Foundation.
        .target(name: "Drawing", dependencies: ["Geodesy", "GeoCells"]),
        // The benchmark report (measurements over Simulation's workloads) and maps of workload
        // files, drawn with Drawing.
        .target(name: "Reporting", dependencies: ["Geodesy", "GeoCells", "SpatialIndex", "Geofencing", "POIData", "Simulation", "Drawing"]),
        // What only the executables share: strict argument parsing, JSON, text tables, clocks.
        // No library depends on it.
        .target(name: "CommandSupport", dependencies: ["FastCSV"]),
        .executableTarget(
            name: "geofence",
            dependencies: ["Geodesy", "GeoCells", "FastCSV", "SpatialIndex", "Geofencing", "POIData", "CommandSupport",
                           "Drawing", "Reporting"]),
        .executableTarget(
            name: "GeofenceBench",
            dependencies: ["Geodesy", "GeoCells", "SpatialIndex", "FastCSV", "Geofencing", "POIData", "Simulation",
                           "CommandSupport", "Reporting"],
            path: "Benchmarks/GeofenceBench"),

        .testTarget(name: "GeodesyTests", dependencies: ["Geodesy"], exclude: ["Fixtures"]),
        .testTarget(name: "GeoCellsTests", dependencies: ["GeoCells", "Geodesy"], exclude: ["Fixtures"]),
        .testTarget(name: "FastCSVTests", dependencies: ["FastCSV", "Geodesy"], exclude: ["Fixtures"]),
        .testTarget(name: "SpatialIndexTests", dependencies: ["SpatialIndex", "GeoCells", "Geodesy"], exclude: ["Fixtures"]),
        .testTarget(name: "GeofencingTests", dependencies: ["Geofencing", "SpatialIndex", "Geodesy"], exclude: ["Fixtures"]),
        .testTarget(name: "POIDataTests", dependencies: ["POIData", "Geofencing", "FastCSV", "Geodesy"], exclude: ["Fixtures"]),
        .testTarget(name: "SimulationTests", dependencies: ["Simulation", "Geofencing", "Geodesy"]),
        .testTarget(name: "DrawingTests", dependencies: ["Drawing", "GeoCells", "Geodesy"]),
        .testTarget(name: "ReportingTests", dependencies: ["Reporting", "Drawing"]),
        .testTarget(name: "ScriptTests", dependencies: ["POIData", "FastCSV", "Geodesy", "GeofenceBench", "geofence"],
                    exclude: ["Fixtures"]),
        .testTarget(name: "GeofenceCLITests", dependencies: ["geofence", "CommandSupport"], exclude: ["Fixtures", "Golden"]),
        .testTarget(name: "CommandSupportTests", dependencies: ["CommandSupport"]),
        .testTarget(name: "GeofenceBenchTests", dependencies: ["GeofenceBench", "CommandSupport"]),
    ]
)
