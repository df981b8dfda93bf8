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
        .library(name: "Responders", targets: ["Responders"]),
        .library(name: "ResponderStore", targets: ["ResponderStore"]),
        .library(name: "Reminders", targets: ["Reminders"]),
        .library(name: "Drawing", targets: ["Drawing"]),
        .library(name: "Reporting", targets: ["Reporting"]),
        .executable(name: "geofence", targets: ["geofence"]),
        .executable(name: "geofence-bench", targets: ["GeofenceBench"]),
    ],
    targets: [
        // Lower layers know nothing of higher ones; each target lists exactly what it imports:
        // Geodesy <- GeoCells; Geodesy <- SpatialIndex <- Geofencing <- Simulation <- executables;
        // Geofencing <- Reminders <- Simulation;
        // FastCSV <- POIData (with Geodesy, SpatialIndex, Geofencing); FastCSV <- Simulation;
        // GeoCells, SpatialIndex <- Responders <- ResponderStore (with CSQLite) <- Simulation;
        // FastCSV <- CommandSupport <- executables.
        .target(name: "Geodesy"),
        .target(name: "GeoCells", dependencies: ["Geodesy"]),
        .target(name: "FastCSV"),
        .target(name: "SpatialIndex", dependencies: ["Geodesy"]),
        // A prefetch hint for the detector's hot loops (one inline C function).
        .target(name: "CPrefetch"),
        .target(name: "Geofencing", dependencies: ["Geodesy", "SpatialIndex", "CPrefetch"]),
        .target(name: "POIData", dependencies: ["FastCSV", "Geodesy", "SpatialIndex", "Geofencing"]),
        .target(name: "Responders", dependencies: ["Geodesy", "GeoCells", "SpatialIndex"]),
        // The OS's libsqlite3 (no Swift package): apt libsqlite3-dev on Debian/Ubuntu; part of
        // the SDK on Apple platforms.
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3",
                       providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]),
        .target(name: "ResponderStore", dependencies: ["Responders", "CSQLite"]),
        // Reminders: Foundation only for TimeZone, Calendar and Locale.
        .target(name: "Reminders", dependencies: ["Geodesy", "Geofencing"]),
        .target(name: "Simulation", dependencies: ["Geodesy", "FastCSV", "SpatialIndex", "Geofencing", "Responders", "ResponderStore",
                                                   "Reminders"]),
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
            dependencies: ["Geodesy", "GeoCells", "FastCSV", "Geofencing", "POIData", "CommandSupport",
                           "Responders", "ResponderStore", "Drawing", "Reporting", "Reminders", "Simulation"]),
        .executableTarget(
            name: "GeofenceBench",
            dependencies: ["Geodesy", "SpatialIndex", "FastCSV", "Geofencing", "POIData", "Simulation", "CommandSupport",
                           "Responders", "ResponderStore", "Reminders", "Reporting"],
            path: "Benchmarks/GeofenceBench"),

        .testTarget(name: "GeodesyTests", dependencies: ["Geodesy"], exclude: ["Fixtures"]),
        .testTarget(name: "GeoCellsTests", dependencies: ["GeoCells", "Geodesy"], exclude: ["Fixtures"]),
        .testTarget(name: "FastCSVTests", dependencies: ["FastCSV", "Geodesy"], exclude: ["Fixtures"]),
        .testTarget(name: "SpatialIndexTests", dependencies: ["SpatialIndex", "Geodesy"], exclude: ["Fixtures"]),
        .testTarget(name: "GeofencingTests", dependencies: ["Geofencing", "SpatialIndex", "Geodesy"], exclude: ["Fixtures"]),
        .testTarget(name: "POIDataTests", dependencies: ["POIData", "Geofencing", "FastCSV", "Geodesy"], exclude: ["Fixtures"]),
        .testTarget(name: "SimulationTests", dependencies: ["Simulation", "Geofencing", "SpatialIndex", "FastCSV", "Geodesy", "Responders",
                                                           "Reminders"], exclude: ["Fixtures"]),
        .testTarget(name: "RemindersTests", dependencies: ["Reminders", "Geofencing", "Geodesy"]),
        .testTarget(name: "DrawingTests", dependencies: ["Drawing", "GeoCells", "Geodesy"]),
        .testTarget(name: "ReportingTests", dependencies: ["Reporting", "Drawing", "Geodesy", "Simulation"],
                    exclude: ["Fixtures"]),
        .testTarget(name: "ScriptTests", dependencies: ["POIData", "FastCSV", "Geodesy", "GeofenceBench", "geofence"],
                    exclude: ["Fixtures"]),
        .testTarget(name: "GeofenceCLITests", dependencies: ["geofence", "CommandSupport", "Responders", "ResponderStore", "CSQLite"],
                    exclude: ["Fixtures", "Golden"]),
        .testTarget(name: "CommandSupportTests", dependencies: ["CommandSupport"]),
        .testTarget(name: "GeofenceBenchTests", dependencies: ["GeofenceBench", "CommandSupport"]),
        .testTarget(name: "RespondersTests", dependencies: ["Responders", "Geodesy", "GeoCells"]),
        .testTarget(name: "ResponderStoreTests", dependencies: ["ResponderStore", "Responders", "Geodesy", "CSQLite", "QueueCrashChild"]),
        // Used only by ResponderStoreTests: appends and acknowledges until it is killed.
        .executableTarget(name: "QueueCrashChild", dependencies: ["ResponderStore", "Responders", "Geodesy"],
                          path: "Tests/QueueCrashChild"),
    ]
)
