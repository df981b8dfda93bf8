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
        .library(name: "GeoJSON", targets: ["GeoJSON"]),
        .library(name: "NumberFormatting", targets: ["NumberFormatting"]),
        .library(name: "JSON", targets: ["JSON"]),
        .library(name: "FastCSV", targets: ["FastCSV"]),
        .library(name: "Statistics", targets: ["Statistics"]),
        .library(name: "SpatialIndex", targets: ["SpatialIndex"]),
        .library(name: "Geofencing", targets: ["Geofencing"]),
        .library(name: "POIData", targets: ["POIData"]),
        .library(name: "Workloads", targets: ["Workloads"]),
        .library(name: "IndexBenchmark", targets: ["IndexBenchmark"]),
        .library(name: "DetectorScoring", targets: ["DetectorScoring"]),
        .library(name: "RegionMonitorSimulation", targets: ["RegionMonitorSimulation"]),
        .library(name: "Responders", targets: ["Responders"]),
        .library(name: "ResponderStore", targets: ["ResponderStore"]),
        .library(name: "ResponderFleetSimulation", targets: ["ResponderFleetSimulation"]),
        .library(name: "Reminders", targets: ["Reminders"]),
        .library(name: "ReminderSimulation", targets: ["ReminderSimulation"]),
        .library(name: "Drawing", targets: ["Drawing"]),
        .library(name: "Maps", targets: ["Maps"]),
        .library(name: "Reporting", targets: ["Reporting"]),
        // For the executables of Server/ (a package of its own that depends on this one by path).
        .library(name: "CommandSupport", targets: ["CommandSupport"]),
        .executable(name: "geofence", targets: ["geofence"]),
        .executable(name: "geofence-bench", targets: ["GeofenceBench"])
    ],
    targets: [
        // Lower layers know nothing of higher ones; each target lists exactly what it imports.
        // The map, one line per target, "A <- B" meaning B imports A:
        //   Geodesy, NumberFormatting, Statistics, CPrefetch: no dependency
        //   NumberFormatting <- JSON
        //   NumberFormatting <- FastCSV
        //   Geodesy <- GeoCells
        //   Geodesy, GeoCells <- SpatialIndex
        //   Geodesy, GeoCells, SpatialIndex, CPrefetch <- Geofencing
        //   FastCSV, Geodesy, SpatialIndex, Geofencing <- POIData
        //   Geodesy, GeoCells, GeoJSON, FastCSV <- Workloads (workload generation and files)
        //   Geodesy, Statistics, SpatialIndex, Workloads <- IndexBenchmark
        //   Geodesy, GeoCells, FastCSV, Statistics, SpatialIndex, Geofencing, Workloads <- DetectorScoring
        //   Geodesy, GeoCells, SpatialIndex, Geofencing, Workloads <- RegionMonitorSimulation
        //   Geodesy, GeoCells, SpatialIndex <- Responders
        //   Responders, CSQLite <- ResponderStore
        //   Geodesy, Statistics, Responders <- ResponderFleetSimulation
        //   Geodesy, Geofencing, JSON <- Reminders
        //   Geodesy, FastCSV, Geofencing, Reminders, Workloads, DetectorScoring <- ReminderSimulation
        //   Geodesy, GeoCells, JSON, NumberFormatting <- GeoJSON
        //   Geodesy, GeoCells, NumberFormatting <- Drawing
        //   Geodesy, GeoCells, GeoJSON, SpatialIndex, Geofencing, POIData, Workloads, Drawing,
        //     NumberFormatting <- Maps
        //   Geodesy, SpatialIndex, Geofencing, Workloads, IndexBenchmark, DetectorScoring,
        //     RegionMonitorSimulation, Drawing, JSON, NumberFormatting <- Reporting
        //   FastCSV <- CommandSupport
        //   geofence: the product layers and Reminders (for `reminders replay`), no simulation;
        //     geofence-bench: all.
        .target(name: "Geodesy"),
        .target(name: "GeoCells", dependencies: ["Geodesy"]),
        // Decimal text of numbers, one rounding rule (printf's: the exact binary value, ties to even).
        .target(name: "NumberFormatting"),
        // JSON text: the one writer (JSONObject, Codable through JSONEncoding) and the one reader
        // (JSONTokenizer, JSONValue, JSONReader with errors naming path, line and column).
        .target(name: "JSON", dependencies: ["NumberFormatting"]),
        // GeoJSON polygons in and out (a streaming reader on JSON's tokenizer; no Foundation).
        .target(name: "GeoJSON", dependencies: ["Geodesy", "GeoCells", "JSON", "NumberFormatting"]),
        .target(name: "FastCSV", dependencies: ["NumberFormatting"]),
        // Order statistics (nearest-rank percentiles, the median) shared by every module and tool.
        .target(name: "Statistics"),
        .target(name: "SpatialIndex", dependencies: ["Geodesy", "GeoCells"]),
        // A prefetch hint for the detector's hot loops (one inline C function).
        .target(name: "CPrefetch"),
        .target(name: "Geofencing", dependencies: ["Geodesy", "GeoCells", "SpatialIndex", "CPrefetch"]),
        .target(name: "POIData", dependencies: ["FastCSV", "Geodesy", "GeoCells", "GeoJSON", "JSON", "SpatialIndex", "Geofencing"]),
        // Synthetic workloads (fences, fixes with their truth, POI files) and the workload CSVs.
        .target(name: "Workloads", dependencies: ["Geodesy", "GeoCells", "GeoJSON", "FastCSV"]),
        // The stabbing harness: an index built, fixes streamed through it, timed and checksummed.
        .target(name: "IndexBenchmark", dependencies: ["Geodesy", "Statistics", "SpatialIndex", "Workloads"]),
        // The detector scored against a workload's truth, the naive detector, flap counts.
        .target(
            name: "DetectorScoring",
            dependencies: [
                "Geodesy", "GeoCells", "FastCSV", "Statistics", "SpatialIndex", "Geofencing",
                "Workloads"
            ]),
        // The OS region monitor simulated, and monitoring plans scored with it.
        .target(name: "RegionMonitorSimulation", dependencies: ["Geodesy", "GeoCells", "SpatialIndex", "Geofencing", "Workloads"]),
        .target(name: "Responders", dependencies: ["Geodesy", "GeoCells", "SpatialIndex"]),
        // The OS's libsqlite3 (no Swift package): apt libsqlite3-dev on Debian/Ubuntu; part of
        // the SDK on Apple platforms.
        .systemLibrary(
            name: "CSQLite", pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]),
        .target(name: "ResponderStore", dependencies: ["Responders", "CSQLite"]),
        // A responder fleet, its phones and the server, simulated with the Responders code.
        .target(name: "ResponderFleetSimulation", dependencies: ["Geodesy", "Statistics", "Responders"]),
        // Reminders: Foundation only for TimeZone, Calendar and Locale.
        .target(name: "Reminders", dependencies: ["Geodesy", "Geofencing", "JSON"]),
        // The nudge engine replayed over a workload's events, and its decisions checked.
        .target(
            name: "ReminderSimulation",
            dependencies: [
                "Geodesy", "FastCSV", "Geofencing", "Reminders", "Workloads",
                "DetectorScoring"
            ]),
        // SVG maps and charts; knows only Geodesy and GeoCells, imports no Foundation.
        .target(name: "Drawing", dependencies: ["Geodesy", "GeoCells", "NumberFormatting"]),
        // Maps of fence, POI and fix files (the engine of `geofence draw`), drawn with Drawing.
        .target(
            name: "Maps",
            dependencies: [
                "Geodesy", "GeoCells", "GeoJSON", "SpatialIndex", "Geofencing", "POIData", "Workloads",
                "Drawing", "NumberFormatting"
            ]),
        // The benchmark report: measurements over generated workloads, drawn with Drawing.
        .target(
            name: "Reporting",
            dependencies: [
                "Geodesy", "SpatialIndex", "Geofencing", "Workloads", "IndexBenchmark",
                "DetectorScoring", "RegionMonitorSimulation", "Drawing", "JSON", "NumberFormatting"
            ]),
        // What only the executables share: strict argument parsing, JSON, text tables, clocks.
        // No library depends on it.
        .target(name: "CommandSupport", dependencies: ["FastCSV"]),
        .executableTarget(
            name: "geofence",
            dependencies: [
                "Geodesy", "GeoCells", "GeoJSON", "FastCSV", "Geofencing", "POIData", "CommandSupport",
                "Responders", "ResponderStore", "Drawing", "Maps", "Reminders", "JSON"
            ]),
        .executableTarget(
            name: "GeofenceBench",
            dependencies: [
                "Geodesy", "SpatialIndex", "FastCSV", "Geofencing", "POIData", "CommandSupport",
                "Workloads", "DetectorScoring", "RegionMonitorSimulation", "Responders", "ResponderStore",
                "ResponderFleetSimulation", "Reminders", "ReminderSimulation", "Drawing", "Reporting", "Statistics",
                "JSON", "NumberFormatting", "IndexBenchmark"
            ],
            path: "Benchmarks/GeofenceBench"),

        .testTarget(name: "GeodesyTests", dependencies: ["Geodesy"], exclude: ["Fixtures"]),
        .testTarget(name: "GeoCellsTests", dependencies: ["GeoCells", "Geodesy"], exclude: ["Fixtures"]),
        .testTarget(name: "GeoJSONTests", dependencies: ["GeoJSON", "GeoCells", "Geodesy", "JSON"]),
        .testTarget(name: "NumberFormattingTests", dependencies: ["NumberFormatting"]),
        .testTarget(name: "JSONTests", dependencies: ["JSON"]),
        .testTarget(name: "FastCSVTests", dependencies: ["FastCSV", "Geodesy"]),
        .testTarget(name: "SpatialIndexTests", dependencies: ["SpatialIndex", "GeoCells", "Geodesy"], exclude: ["Fixtures"]),
        .testTarget(name: "GeofencingTests", dependencies: ["Geofencing", "GeoCells", "SpatialIndex", "Geodesy"], exclude: ["Fixtures"]),
        .testTarget(name: "POIDataTests", dependencies: ["POIData", "Geofencing", "FastCSV", "Geodesy", "GeoCells", "GeoJSON"]),
        .testTarget(name: "WorkloadsTests", dependencies: ["Workloads", "GeoJSON", "GeoCells", "Geodesy"]),
        .testTarget(
            name: "DetectorScoringTests",
            dependencies: [
                "DetectorScoring", "Workloads", "Geofencing", "GeoCells", "SpatialIndex",
                "FastCSV", "Geodesy"
            ]),
        .testTarget(
            name: "RegionMonitorSimulationTests",
            dependencies: [
                "RegionMonitorSimulation", "DetectorScoring", "Workloads",
                "Geofencing", "GeoCells", "SpatialIndex", "Geodesy"
            ]),
        .testTarget(name: "ResponderFleetSimulationTests", dependencies: ["ResponderFleetSimulation", "Responders"]),
        .testTarget(
            name: "ReminderSimulationTests",
            dependencies: [
                "ReminderSimulation", "DetectorScoring", "Workloads", "FastCSV",
                "Reminders", "Geofencing", "SpatialIndex"
            ],
            exclude: ["Fixtures"]),
        .testTarget(name: "RemindersTests", dependencies: ["Reminders", "Geofencing", "Geodesy"]),
        .testTarget(name: "DrawingTests", dependencies: ["Drawing", "GeoCells", "Geodesy", "NumberFormatting"]),
        .testTarget(name: "MapsTests", dependencies: ["Maps", "Drawing", "Workloads", "Geodesy"]),
        .testTarget(
            name: "ReportingTests", dependencies: ["Reporting", "Drawing", "Geodesy", "JSON", "NumberFormatting"],
            exclude: ["Fixtures"]),
        .testTarget(
            name: "ScriptTests", dependencies: ["POIData", "FastCSV", "Geodesy", "GeoCells", "GeoJSON", "GeofenceBench", "geofence"],
            exclude: ["Fixtures"]),
        .testTarget(
            name: "GeofenceCLITests", dependencies: ["geofence", "CommandSupport", "Responders", "ResponderStore", "CSQLite"],
            exclude: ["Fixtures", "Golden"]),
        .testTarget(name: "CommandSupportTests", dependencies: ["CommandSupport", "FastCSV"]),
        .testTarget(name: "StatisticsTests", dependencies: ["Statistics"]),
        .testTarget(
            name: "GeofenceBenchTests",
            dependencies: [
                "GeofenceBench", "CommandSupport", "DetectorScoring",
                "ResponderFleetSimulation", "ResponderStore", "IndexBenchmark", "SpatialIndex", "Workloads"
            ]),
        .testTarget(name: "IndexBenchmarkTests", dependencies: ["IndexBenchmark", "SpatialIndex", "Workloads"]),
        .testTarget(name: "RespondersTests", dependencies: ["Responders", "Geodesy", "GeoCells"]),
        .testTarget(name: "ResponderStoreTests", dependencies: ["ResponderStore", "Responders", "Geodesy", "CSQLite", "QueueCrashChild"]),
        // Used only by ResponderStoreTests: appends and acknowledges until it is killed.
        .executableTarget(
            name: "QueueCrashChild", dependencies: ["ResponderStore", "Responders", "Geodesy"],
            path: "Tests/QueueCrashChild")
    ]
)
