import Foundation
import Geodesy
import Testing

@testable import GeoCells

/// The index builder tests containment by brute force only where it has no edges to count
/// crossings with: a ring of many vertices builds in O(n log n), not O(n²) (a 200,000-vertex
/// ring in `geofence contains` took 275 s before), and every cell's answers equal brute force.
@Suite struct PolygonIndexBuildTests {
    /// A ring of `n` vertices on an ellipse around (lat, lng), counterclockwise.
    static func ring(_ n: Int, lat: Double, lng: Double, radius: Double) throws -> [UnitVector] {
        try (0..<n).map { k in
            let t = 2 * Double.pi * Double(k) / Double(n)
            return UnitVector(try LatLng(latitude: lat + radius * 0.5 * sin(t), longitude: lng + radius * cos(t)))
        }
    }

    /// The index of `polygon` built again, counting the brute-force containment tests.
    static func rebuilt(_ polygon: Polygon) -> (index: PolygonIndex, bruteForceTests: Int) {
        var tests = 0
        let index = PolygonIndex(
            edgeCount: polygon.edgeCount, edge: { polygon.edge($0) },
            contains: { p in
                tests += 1
                return Polygon.bruteForceContains(polygon.vertices, polygon.loopStarts, polygon.originInside, p)
            })
        return (index, tests)
    }

    @Test func aLargeRingNeedsFewBruteForceTests() throws {
        let polygon = try Polygon(rings: [try Self.ring(4000, lat: 60.1, lng: 24.9, radius: 0.01)])
        let (index, tests) = Self.rebuilt(polygon)
        #expect(index.count > 400)  // 4,000 edges, at most 10 short edges a cell
        // The face's root cell and the tiles around the shrunk cell: a few per level. Brute force
        // in every cell made this one test per cell and per center, over 1,000.
        #expect(tests <= 200, "\(tests) brute-force tests for \(index.count) cells")
    }

    /// Every cell's entry vertex and center containment, as recorded, equals brute force: on
    /// rings with vertices on cell corners and centers (the semi-open model's hard cases), holes,
    /// and rings across faces.
    @Test func cellsAgreeWithBruteForce() throws {
        let corner = CellID(face: 0).child(0).child(3)
        var shapes: [[[UnitVector]]] = [
            [try Self.ring(120, lat: 60.1, lng: 24.9, radius: 0.01)],
            [try Self.ring(120, lat: 0, lng: 45, radius: 20)],  // across faces 0 and 1
            [try Self.ring(80, lat: 10, lng: 10, radius: 5), try Self.ring(40, lat: 10, lng: 10, radius: 1).reversed()],
            [try (0..<60).map { k in UnitVector(try LatLng(latitude: 80, longitude: Double(k) * 6 - 180)) }]  // around the pole
        ]
        // A square whose vertices are a cell's corners, and another through cell centers.
        let cell = Cell(corner)
        shapes.append([(0..<4).map { cell.vertex($0) }])
        shapes.append([(0..<4).map { Cell(corner.child($0)).center }])
        for rings in shapes {
            let polygon = try Polygon(rings: rings)
            let (index, _) = Self.rebuilt(polygon)
            #expect(index.cellIDs == polygon.index.cellIDs)
            #expect(index.containsCenter == polygon.index.containsCenter)
            for k in 0..<index.count {
                let center = index.cellIDs[k].centerPoint
                let brute = Polygon.bruteForceContains(polygon.vertices, polygon.loopStarts, polygon.originInside, center)
                #expect(index.containsCenter[k] == brute, "cell \(index.cellIDs[k].token)")
            }
        }
    }

    /// Loop depths test B's vertex against A exactly only inside A's cap: a MultiPolygon of
    /// many small parts is linear in exact tests, not quadratic (10,000 parts took 4.8 s). The
    /// caps hold their loops, and nesting is still found: shell, hole, island.
    @Test func loopDepthsUseCapsAndStayExact() throws {
        let parts = try (0..<400).map { k in try Self.ring(6, lat: 0.5, lng: Double(k) * 0.01, radius: 0.003) }
        let many = try Polygon(rings: parts)
        let caps = many.loopCaps()
        #expect(caps.allSatisfy { $0 != nil })
        for (k, cap) in caps.enumerated() {
            let cap = try #require(cap)
            for v in many.loopStarts[k]..<many.loopStarts[k + 1] { #expect(cap.center.chord2(to: many.vertices[v]) <= cap.limit) }
            // Only its own neighbourhood: no other part's vertex in the cap.
            let others = (0..<many.loopCount).filter { $0 != k && cap.center.chord2(to: many.vertices[many.loopStarts[$0] + 1]) <= cap.limit }
            #expect(others.isEmpty)
        }
        #expect((0..<many.loopCount).allSatisfy { !many.isHole($0) })
        let nested = try Polygon(rings: [
            try Self.ring(40, lat: 10, lng: 10, radius: 5), try Self.ring(30, lat: 10, lng: 10, radius: 3).reversed(),
            try Self.ring(20, lat: 10, lng: 10, radius: 1)
        ])
        #expect(nested.computeDepths() == [0, 1, 2])
        // A loop around the pole is larger than 60°: no cap, always tested exactly.
        let polar = try Polygon(rings: [try (0..<60).map { k in UnitVector(try LatLng(latitude: 20, longitude: Double(k) * 6 - 180)) }])
        #expect(polar.loopCaps().allSatisfy { $0 == nil })
    }
}
