import NumberFormatting
import Drawing
import GeoCells
import GeoJSON
import Geodesy
import Geofencing
import POIData
import SpatialIndex
import Workloads

/// A map of workload files, as `geofence draw` makes it: fences from a fences CSV, optional S2
/// covers of each fence, POIs from a POI CSV, and one device's trajectory from a fixes CSV with
/// the transition detector's enter/exit/dwell events.
///
/// Files are read with the package's readers (`WorkloadReader`, `POICatalog`), so a bad row
/// fails with its file, line and column. What is left out of the picture is counted in its notes:
/// with a trajectory, only fences within ``nearTrackMeters`` of one of its fixes are drawn; with
/// fences, only POIs within ``nearTrackMeters`` of one of the drawn fences.
public struct MapRequest: Sendable {
    /// `fences.csv` (`id,lat,lon,radius_m[,poi_id,tier]`), or nil.
    public var fencesPath: String?
    /// A GeoJSON file of Polygon and MultiPolygon features, or nil: each drawn with its enclosing
    /// circle (dashed) and, with ``coverMaxCells``, its S2 covering.
    public var polygonsPath: String?
    /// A POI CSV (`osm_type,osm_id,lat,lon,name,...`), or nil.
    public var poisPath: String?
    /// `fixes.csv` (`device,t,lat,lon,accuracy_m`), or nil.
    public var fixesPath: String?
    /// The device whose fixes are drawn (default: the device of the first fix).
    public var device: Int32?
    /// Dwell time given to every drawn fence for the detector, seconds (nil: no dwell events;
    /// the workload format carries no dwell times).
    public var dwellSeconds: Double?
    /// Draw each fence's S2 covering with at most this many cells (nil: no covers).
    public var coverMaxCells: Int?
    /// Fences whose boundary is farther than this from every fix of the trajectory, and POIs
    /// farther than this from every drawn fence, are left out (meters).
    public var nearTrackMeters: Double = 1_000
    /// Projection and canvas size of the picture (pixels).
    public var projection: MapProjection = .webMercator
    /// Canvas width and height, pixels.
    public var width = 1000.0, height = 720.0
    /// The picture's heading (default: the files drawn).
    public var title: String?

    /// An empty request (draws an empty world map until files are set).
    public init() {}

    /// A request that cannot be drawn: what is wrong, naming the file or the option.
    public struct Failure: Error, CustomStringConvertible {
        /// The message, e.g. `fixes.csv: no fix of device 7`.
        public var description: String
    }

    /// Reads the files and lays out the picture.
    /// - Complexity: O(f log f + t·k) for f fences, t trajectory fixes and k fences near each fix,
    ///   plus the coverings (about 5-10 µs per fence).
    public func picture() throws -> MapPicture {
        var notes: [String] = []
        var rows: [WorkloadFence] = []
        if let fencesPath { rows = try WorkloadReader.readFences(path: fencesPath) }

        var trackIndexes: [Int] = []
        var fixes = FixStream()
        var chosenDevice: Int32?
        if let fixesPath {
            fixes = try WorkloadReader.readFixes(path: fixesPath, order: .perDevice)
            guard let device = device ?? fixes.device.first else { throw Failure(description: "\(fixesPath): no fixes") }
            trackIndexes = fixes.device.indices.filter { fixes.device[$0] == device }
            guard !trackIndexes.isEmpty else { throw Failure(description: "\(fixesPath): no fix of device \(device)") }
            chosenDevice = device
        }

        // With a trajectory: only the fences near it.
        var drawn = rows
        if !trackIndexes.isEmpty && !rows.isEmpty {
            let fences = try rows.map { try Fence(id: $0.id, latitude: $0.latitude, longitude: $0.longitude, radiusMeters: $0.radius) }
            let index = PackedRTree(fences)
            let largest = rows.map(\.radius).max() ?? 0
            var keep = Set<Int32>()
            let byID = Dictionary(rows.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
            for k in trackIndexes {
                let fix = LatLng(uncheckedLatitude: fixes.latitude[k], longitude: fixes.longitude[k])
                index.forEachWithin(meters: largest + nearTrackMeters, of: fix.unitVector) { id in
                    guard let fence = byID[id], !keep.contains(id) else { return }
                    let center = LatLng(uncheckedLatitude: fence.latitude, longitude: fence.longitude)
                    if haversineDistance(center, fix) <= fence.radius + nearTrackMeters { keep.insert(id) }
                }
            }
            drawn = rows.filter { keep.contains($0.id) }
            if drawn.count < rows.count {
                notes.append("\(drawn.count) of \(rows.count) fences drawn: those within \(NumberText.meters(nearTrackMeters)) of the trajectory")
            }
        }

        var map = MapPicture(title: title ?? defaultTitle)
        map.projection = projection
        map.width = width
        map.height = height
        map.fences = drawn.map { f in
            MapPicture.Circle(
                center: LatLng(uncheckedLatitude: f.latitude, longitude: f.longitude), radius: f.radius,
                label: "fence \(f.id) (POI \(f.poiID), tier \(f.tier)): \(NumberText.meters(f.radius))")
        }
        var polygons: [GeoJSONFeature] = []
        if let polygonsPath {
            do throws(GeoJSONError) {
                var reader = try GeoJSONReader(path: polygonsPath)
                polygons = try reader.readAll()
            } catch {
                let feature = error.featureIndex.map { "feature \($0)" } ?? "document"
                throw Failure(description: "\(polygonsPath):\(error.line):\(error.column): \(feature) at \(error.path): \(error.message)")
            }
            for f in polygons {
                let p = f.polygon
                let loops = (0..<p.loopCount).map { k in p.vertices[p.loopStarts[k]..<p.loopStarts[k + 1]].map(\.latLng) }
                map.polygons.append(
                    MapPicture.Shape(loops: loops, label: "polygon \(f.id): \(DecimalFormatting.grouped(p.areaSquareMeters, 0)) m²"))
                if let circle = try? FenceOutlines.enclosingFence(id: 0, polygon: p) {
                    map.enclosingCircles.append(
                        MapPicture.Circle(
                            center: circle.center, radius: circle.radiusMeters,
                            label: "enclosing circle of polygon \(f.id): \(NumberText.meters(circle.radiusMeters))"))
                }
            }
            notes.append(
                "\(polygons.count) polygon\(polygons.count == 1 ? "" : "s") with \(polygons.count == 1 ? "its" : "their") "
                    + "enclosing circle\(polygons.count == 1 ? "" : "s") (dashed: the circle the OS watches)")
        }
        if let maxCells = coverMaxCells {
            let coverer = try RegionCoverer(maxCells: maxCells)
            var cells = Set<CellID>()
            for f in drawn {
                let cap = Cap(center: LatLng(uncheckedLatitude: f.latitude, longitude: f.longitude), meters: f.radius)
                cells.formUnion(coverer.covering(of: cap))
            }
            for f in polygons { cells.formUnion(coverer.covering(of: f.polygon)) }
            map.cells = cells.sorted()
            let what = polygons.isEmpty ? "fence" : drawn.isEmpty ? "polygon" : "fence and polygon"
            notes.append("S2 covers of at most \(maxCells) cells per \(what): \(map.cells.count) distinct cells")
        }
        if let poisPath {
            let catalog: POICatalog
            do {
                catalog = try POICatalog(path: poisPath)
            } catch {  // POIError names the line and column; the file is named here
                throw Failure(description: error.reason == .io ? error.message : error.formatted(source: poisPath))
            }
            var indexes = Array(0..<catalog.count)
            if !drawn.isEmpty {
                // With fences: only the POIs near them, so a city's fences are not lost on a continent.
                let fences = try drawn.map { try Fence(id: $0.id, latitude: $0.latitude, longitude: $0.longitude, radiusMeters: $0.radius) }
                let index = PackedRTree(fences)
                let largest = drawn.map(\.radius).max() ?? 0
                let byID = Dictionary(drawn.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
                indexes = indexes.filter { i in
                    let p = catalog.location(at: i)
                    var near = false
                    index.forEachWithin(meters: largest + nearTrackMeters, of: p.unitVector) { id in
                        guard !near, let f = byID[id] else { return }
                        near = haversineDistance(LatLng(uncheckedLatitude: f.latitude, longitude: f.longitude), p) <= f.radius + nearTrackMeters
                    }
                    return near
                }
                if indexes.count < catalog.count {
                    notes.append("\(indexes.count) of \(catalog.count) POIs drawn: those within \(NumberText.meters(nearTrackMeters)) of a fence")
                }
            }
            // The POI each drawn fence belongs to (its poi_id is the 0-based row of this file when
            // the fences were made from it: marked only where the positions agree).
            for i in Set(drawn.map { Int($0.poiID) }).sorted() where i >= 0 && i < catalog.count {
                let center = drawn.first { Int($0.poiID) == i }.map { LatLng(uncheckedLatitude: $0.latitude, longitude: $0.longitude) }
                guard let center, haversineDistance(center, catalog.location(at: i)) < 1 else { continue }
                let category = catalog.category(at: i)?.rawValue ?? ""
                map.marked.append(
                    MapPicture.Point(
                        position: catalog.location(at: i),
                        label: [catalog.name(at: i), category].filter { !$0.isEmpty }.joined(separator: ", ")))
            }
            map.pois = indexes.map { i in
                let name = catalog.name(at: i)
                let category = catalog.category(at: i)?.rawValue ?? ""
                return MapPicture.Point(
                    position: catalog.location(at: i),
                    label: [name, category].filter { !$0.isEmpty }.joined(separator: ", "))
            }
        }
        if let device = chosenDevice {
            map.track = trackIndexes.map { k in
                MapPicture.Point(
                    position: LatLng(uncheckedLatitude: fixes.latitude[k], longitude: fixes.longitude[k]),
                    label: "t = \(DecimalFormatting.grouped(fixes.time[k], 1)) s, accuracy \(NumberText.meters(fixes.accuracy[k]))")
            }
            if !drawn.isEmpty {
                let fences = try drawn.map { try Fence(id: $0.id, latitude: $0.latitude, longitude: $0.longitude, radiusMeters: $0.radius) }
                let dwell = dwellSeconds.map { seconds in Dictionary(uniqueKeysWithValues: fences.map { ($0.id, seconds) }) } ?? [:]
                var detector = try TransitionDetector(fences: fences, dwellSeconds: dwell)
                var events: [TransitionEvent] = []
                for k in trackIndexes {
                    let before = events.count
                    detector.process(
                        device: device, time: fixes.time[k], latitude: fixes.latitude[k],
                        longitude: fixes.longitude[k], accuracy: fixes.accuracy[k], into: &events)
                    for e in events[before...] {
                        let kind: MapPicture.EventKind = e.kind == .enter ? .enter : e.kind == .exit ? .exit : .dwell
                        map.events.append(
                            MapPicture.Event(
                                position: LatLng(uncheckedLatitude: fixes.latitude[k], longitude: fixes.longitude[k]), kind: kind,
                                label: "\(e.kind) fence \(e.fence) at t = \(DecimalFormatting.grouped(e.time, 1)) s"))
                    }
                }
            }
            let dwellNote = dwellSeconds.map { "; dwell after \(DecimalFormatting.grouped($0, 0)) s inside" } ?? ""
            notes.append("device \(device): \(trackIndexes.count) fixes; events from the transition detector with its defaults" + dwellNote)
        }
        map.notes = notes
        return map
    }

    var defaultTitle: String {
        let names = [fencesPath, polygonsPath, poisPath, fixesPath].compactMap { $0 }.map { path in
            path.split(separator: "/").last.map(String.init) ?? path
        }
        return names.isEmpty ? "Geofence map" : names.joined(separator: ", ")
    }
}
