// swift-tools-version:6.0
// A dependency-free geofencing engine: geodesy, S2-compatible cells, spatial indexes.
// "packages: none": this manifest declares no package dependencies, and must never gain one.
import PackageDescription

let package = Package(
    name: "Geofence",
    products: [
        .library(name: "Geodesy", targets: ["Geodesy"]),
        .library(name: "GeoCells", targets: ["GeoCells"]),
        .library(name: "FastCSV", targets: ["FastCSV"]),
        .library(name: "SpatialIndex", targets: ["SpatialIndex"]),
        .library(name: "Geofencing", targets: ["Geofencing"]),
        .library(name: "POIData", targets: ["POIData"]),
        .library(name: "Simulation", targets: ["Simulation"]),
        .library(name: "Reminders", targets: ["Reminders"]),
        .executable(name: "geofence", targets: ["geofence"]),
        .executable(name: "geofence-bench", targets: ["GeofenceBench"]),
    ],
    targets: [
        // Lower layers know nothing of higher ones:
        // Geodesy <- GeoCells <- SpatialIndex <- Geofencing <- Reminders <- Simulation <- executables;
        // FastCSV <- POIData (with Geodesy, SpatialIndex, Geofencing); FastCSV <- Simulation.
        .target(name: "Geodesy"),
        .target(name: "GeoCells", dependencies: ["Geodesy"]),
        .target(name: "FastCSV"),
        .target(name: "SpatialIndex", dependencies: ["Geodesy", "GeoCells"]),
        .target(name: "Geofencing", dependencies: ["Geodesy", "GeoCells", "SpatialIndex"]),
        .target(name: "POIData", dependencies: ["FastCSV", "Geodesy", "SpatialIndex", "Geofencing"]),
        // Reminders: Foundation only for TimeZone, Calendar and Locale.
        .target(name: "Reminders", dependencies: ["Geodesy", "Geofencing"]),
        .target(name: "Simulation", dependencies: ["Geodesy", "FastCSV", "SpatialIndex", "Geofencing", "Reminders"]),
        .executableTarget(
            name: "geofence",
            dependencies: ["Geodesy", "GeoCells", "FastCSV", "SpatialIndex", "Geofencing", "POIData"]),
        .executableTarget(
            name: "GeofenceBench",
            dependencies: ["Geodesy", "GeoCells", "SpatialIndex", "FastCSV", "Geofencing", "POIData", "Simulation", "Reminders"],
            path: "Benchmarks/GeofenceBench"),

        .testTarget(name: "GeodesyTests", dependencies: ["Geodesy"], exclude: ["Fixtures"]),
        .testTarget(name: "GeoCellsTests", dependencies: ["GeoCells", "Geodesy"], exclude: ["Fixtures"]),
        .testTarget(name: "FastCSVTests", dependencies: ["FastCSV"], exclude: ["Fixtures"]),
        .testTarget(name: "SpatialIndexTests", dependencies: ["SpatialIndex", "GeoCells", "Geodesy"], exclude: ["Fixtures"]),
        .testTarget(name: "GeofencingTests", dependencies: ["Geofencing", "SpatialIndex", "Geodesy"]),
        .testTarget(name: "POIDataTests", dependencies: ["POIData", "Geofencing", "FastCSV", "Geodesy"], exclude: ["Fixtures"]),
        .testTarget(name: "SimulationTests", dependencies: ["Simulation", "Geofencing", "Geodesy", "Reminders"], exclude: ["Fixtures"]),
        .testTarget(name: "RemindersTests", dependencies: ["Reminders", "Geofencing", "Geodesy"]),
        .testTarget(name: "GeofenceCLITests", dependencies: ["geofence"], exclude: ["Fixtures", "Golden"]),
    ]
)
