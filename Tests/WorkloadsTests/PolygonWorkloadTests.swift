import Foundation
import GeoCells
import GeoJSON
import Geodesy
import Testing
@testable import Workloads

@Suite struct PolygonWorkloadTests {
    let scratch: ScratchDirectory
    init() throws { scratch = try ScratchDirectory() }

    static let spec = WorkloadSpec(pois: 4, devices: 12, fixes: 6_000, seed: 5, polygons: 60)

    @Test func polygonsAreValidSeededAndInsideTheirCircles() throws {
        let w = WorkloadGenerator.make(Self.spec)
        let again = WorkloadGenerator.make(Self.spec)
        #expect(w.polygons == again.polygons && w.fences == again.fences)
        #expect(w.fixes.latitude == again.fixes.latitude && w.fixes.trueLongitude == again.fixes.trueLongitude)
        var other = Self.spec
        other.seed = 6
        #expect(WorkloadGenerator.make(other).polygons != w.polygons)
        // The circles first (4 POIs x 3 tiers), then one row per polygon, ids continuing.
        #expect(w.fences.count == 12 + 60 && w.polygons.map(\.id) == (12..<72).map(Int32.init))
        #expect(w.fences[0..<12] == WorkloadGenerator.fences(Self.spec)[...])
        var holes = 0, concave = 0
        for p in w.polygons {
            let polygon = try Polygon(latLngRings: p.rings)
            holes += p.rings.count - 1
            let row = w.fences[Int(p.id)]
            #expect(row.tier == 0 && row.poiID == Int32(Self.spec.pois) + p.id - 12)
            let center = LatLng(uncheckedLatitude: row.latitude, longitude: row.longitude).unitVector
            for v in polygon.vertices { #expect(v.chord2(to: center).squareRoot() * Earth.meanRadius <= row.radius) }
            // The circle is the minimum enclosing one, give or take rounding.
            #expect(abs(polygon.enclosingCap.radius.meters - row.radius) < 0.05)
            for ring in p.rings {
                for v in ring { #expect(v.latitude == WorkloadGenerator.round7(v.latitude) && v.longitude == WorkloadGenerator.round7(v.longitude)) }
            }
            // Concave: some vertex lies inside the convex hull, i.e. a reflex turn in the shell.
            let shell = p.rings[0].map(\.unitVector)
            if shell.indices.contains(where: { i in
                Predicates.sign(shell[(i + shell.count - 1) % shell.count], shell[i], shell[(i + 1) % shell.count]) < 0
            }) {
                concave += 1
            }
        }
        #expect(holes >= 5 && holes <= 30)  // a quarter of 60, give or take
        #expect(concave >= 20)
        let kinds = Dictionary(grouping: w.polygons, by: \.kind).mapValues(\.count)
        #expect(Set(kinds.keys) == Set(WorkloadPolygon.Kind.allCases))
        #expect(kinds[.building]! > kinds[.park]!)
    }

    @Test func devicesVisitThePolygonsAndLeaveThem() throws {
        let w = WorkloadGenerator.make(Self.spec)
        let polygons = try w.polygons.map { try Polygon(latLngRings: $0.rings) }
        #expect(w.fixes.count == 6_000 && w.fixes.hasTruth)
        for k in 1..<w.fixes.count { #expect(w.fixes.time[k - 1] <= w.fixes.time[k]) }
        var inside = 0, changes = 0
        var last: [Int32: Bool] = [:]
        for k in 0..<w.fixes.count {
            let p = LatLng(uncheckedLatitude: w.fixes.trueLatitude[k], longitude: w.fixes.trueLongitude[k]).unitVector
            let isInside = polygons.contains { $0.contains(p) }
            if isInside { inside += 1 }
            if let before = last[w.fixes.device[k]], before != isInside { changes += 1 }
            last[w.fixes.device[k]] = isInside
        }
        // Stays of 5-45 minutes and trips between them (long ones among 60 polygons spread over
        // the country): every device coming and going.
        #expect(Double(inside) / Double(w.fixes.count) > 0.1)
        #expect(Double(inside) / Double(w.fixes.count) < 0.9)
        #expect(changes >= 2 * Self.spec.devices)
    }

    @Test func writtenPolygonsReadBackAsTheSamePolygons() throws {
        let w = WorkloadGenerator.make(Self.spec)
        let dir = scratch.url.path
        try WorkloadWriter.write(w, toDirectory: dir)
        let text = try String(contentsOfFile: dir + "/polygons.geojson", encoding: .utf8)
        #expect(text.hasPrefix("{\"type\":\"FeatureCollection\""))
        #expect(text.contains("\"properties\":{\"kind\":\"park\"}"))
        let fences = try WorkloadReader.readFences(path: dir + "/fences.csv")
        #expect(fences == w.fences)
        let read = try WorkloadReader.readPolygons(path: dir + "/polygons.geojson", fences: fences)
        #expect(read.map(\.id) == w.polygons.map(\.id))
        let fixes = try WorkloadReader.readFixes(path: dir + "/fixes.csv", truthPath: dir + "/truth.csv")
        for (r, p) in zip(read, w.polygons) {
            let original = try Polygon(latLngRings: p.rings)
            #expect(r.polygon.vertices == original.vertices && r.polygon.loopStarts == original.loopStarts)
        }
        // So the truth read back is inside exactly the polygons it was generated inside.
        for k in stride(from: 0, to: fixes.count, by: 7) {
            let p = LatLng(uncheckedLatitude: fixes.trueLatitude[k], longitude: fixes.trueLongitude[k]).unitVector
            let q = LatLng(uncheckedLatitude: w.fixes.trueLatitude[k], longitude: w.fixes.trueLongitude[k]).unitVector
            #expect(p == q)
        }
    }

    @Test func polygonFilesThatDoNotFitTheFencesAreRejected() throws {
        let fences = [WorkloadFence(id: 3, latitude: 60, longitude: 25, radius: 200, poiID: 0, tier: 0)]
        func feature(_ id: String, _ size: Double) -> String {
            let ring = [(0.0, 0.0), (size, 0), (size, size), (0, size), (0, 0)]
                .map { "[\(25 + $0.0),\(60 + $0.1)]" }.joined(separator: ",")
            return "{\"type\":\"Feature\",\"id\":\(id),\"properties\":{},\"geometry\":{\"type\":\"Polygon\",\"coordinates\":[[\(ring)]]}}"
        }
        func collection(_ features: String...) throws -> String {
            try scratch.write(
                "{\"type\":\"FeatureCollection\",\"features\":[\(features.joined(separator: ","))]}", name: UUID().uuidString + ".geojson")
        }
        #expect(try WorkloadReader.readPolygons(path: try collection(feature("3", 0.001)), fences: fences).count == 1)
        func message(_ path: String) -> String {
            do {
                _ = try WorkloadReader.readPolygons(path: path, fences: fences)
                return ""
            } catch { return error.description }
        }
        #expect(message(try collection(feature("4", 0.001))).hasSuffix("feature 0: id 4 has no row in the fences file"))
        #expect(message(try collection(feature("\"3\"", 0.001))).contains("feature 0: id 3 is not a fence id"))
        #expect(message(try collection(feature("3", 0.001), feature("3", 0.001))).contains("feature 1: id 3 repeats"))
        #expect(message(try collection(feature("3", 0.01))).contains("feature 0: vertex 1 of polygon 3 lies outside"))
        let broken = try scratch.write("{\"type\":\"FeatureCollection\",\"features\":[{\"type\":\"Feature\"", name: "b.geojson")
        #expect(message(broken).hasPrefix(broken + ":1:"))
    }

    @Test func circleWorkloadsAreUnchanged() throws {
        // FNV-1a of fixes.csv and truth.csv for a small circle workload, pinned when the
        // generator learned polygons (the same bytes as the generator before it).
        let w = WorkloadGenerator.make(WorkloadSpec(pois: 20, devices: 5, fixes: 2_000, seed: 1))
        try WorkloadWriter.write(w, toDirectory: scratch.url.path)
        func fnv(_ name: String) throws -> UInt64 {
            let bytes = try Data(contentsOf: scratch.url.appendingPathComponent(name))
            return bytes.reduce(0xcbf2_9ce4_8422_2325 as UInt64) { ($0 ^ UInt64($1)) &* 0x100_0000_01b3 }
        }
        #expect(!FileManager.default.fileExists(atPath: scratch.url.appendingPathComponent("polygons.geojson").path))
        #expect(try fnv("fixes.csv") == 1_998_740_694_574_934_763)
        #expect(try fnv("truth.csv") == 14_397_096_408_172_587_516)
    }
}
