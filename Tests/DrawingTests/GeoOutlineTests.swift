import Geodesy
import GeoCells
import Testing
@testable import Drawing

@Suite struct GeoOutlineTests {
    /// Seeded: every outline vertex lies at the fence radius from its center (great circle), and
    /// neighboring vertices never jump by 180 degrees of longitude or more, anywhere on Earth.
    @Test func circleVerticesLieOnTheGreatCircleAndAreUnwrapped() throws {
        let seed: UInt64 = 11
        var rng = SplitMix64(seed: seed)
        for _ in 0..<300 {
            let lat = -90 + 180 * Double(rng.next() % 1_000_001) / 1e6
            let lon = -180 + 360 * Double(rng.next() % 1_000_000) / 1e6
            let radius = [1.0, 150, 1609.344, 8046.72, 500_000, 5_000_000][Int(rng.next() % 6)]
            let center = try LatLng(latitude: lat, longitude: lon)
            let outline = GeoOutline.circle(center: center, radius: radius, segments: 64)
            #expect(outline.ring.count == 64)
            #expect(!outline.isComplement)
            for (i, v) in outline.ring.enumerated() {
                let d = haversineDistance(center, LatLng(uncheckedLatitude: v.latitude, longitude: LatLng.wrapLongitude(v.longitude)))
                #expect(abs(d - radius) < 1e-6, "seed \(seed): center \(lat),\(lon) r \(radius)")
                if i > 0 { #expect(abs(v.longitude - outline.ring[i - 1].longitude) < 180) }
            }
        }
    }

    @Test func aFenceAcrossTheAntimeridianRunsPast180() throws {
        let outline = GeoOutline.circle(center: try LatLng(latitude: -16.5, longitude: 179.99), radius: 5000, segments: 32)
        #expect(outline.pole == 0)
        let range = outline.longitudeRange
        #expect(range.min > 179.9 && range.min < 179.99)
        #expect(range.max > 180 && range.max < 180.1)
    }

    @Test func polarFencesEncloseTheirPoleAndCloseAlongTheMapEdge() throws {
        let north = GeoOutline.circle(center: try LatLng(latitude: 89.9, longitude: 30), radius: 50_000, segments: 64)
        #expect(north.pole == 1)
        let range = north.longitudeRange
        #expect(range.max - range.min > 350)  // one turn around the axis
        let polygon = north.mapPolygon(latitudeLimit: 85)
        #expect(polygon.count == 67)
        #expect(polygon.suffix(2).allSatisfy { $0.latitude == 85 })
        let south = GeoOutline.circle(center: try LatLng(latitude: -89.5, longitude: -120), radius: 100_000, segments: 64)
        #expect(south.pole == -1)
        #expect(south.mapPolygon(latitudeLimit: 90).suffix(2).allSatisfy { $0.latitude == -90 })
        // A pole exactly at the center.
        #expect(GeoOutline.circle(center: try LatLng(latitude: 90, longitude: 0), radius: 1000, segments: 16).pole == 1)
        // A fence near but not around the pole.
        #expect(GeoOutline.circle(center: try LatLng(latitude: 89, longitude: 0), radius: 1000, segments: 16).pole == 0)
    }

    @Test func capsBeyondAHemisphereAreDrawnAsTheComplementOfTheAntipodalCircle() throws {
        let center = try LatLng(latitude: 10, longitude: 20)
        let outline = GeoOutline.circle(center: center, radius: 15_000_000, segments: 32)
        #expect(outline.isComplement)
        let antipode = try LatLng(latitude: -10, longitude: -160)
        let expected = Double.pi * Earth.meanRadius - 15_000_000
        for v in outline.ring {
            let d = haversineDistance(antipode, LatLng(uncheckedLatitude: v.latitude, longitude: LatLng.wrapLongitude(v.longitude)))
            #expect(abs(d - expected) < 1e-6)
        }
        // Zero and the whole sphere draw without trouble.
        #expect(GeoOutline.circle(center: center, radius: 0, segments: 8).ring.allSatisfy { $0.latitude == 10 })
        #expect(GeoOutline.circle(center: center, radius: 1e9, segments: 8).isComplement)
    }

    @Test func cellOutlinesUseTheCellsFourVertices() throws {
        let id = CellID(try LatLng(latitude: 60.1699, longitude: 24.9384)).parent(level: 13)
        let outline = GeoOutline.cell(id)
        let cell = Cell(id)
        #expect(outline.ring.count == 4)
        for k in 0..<4 {
            let v = cell.vertex(k).latLng
            #expect(abs(outline.ring[k].latitude - v.latitude) < 1e-12 && abs(outline.ring[k].longitude - v.longitude) < 1e-12)
        }
        // A face cell (level 0) is drawn with 16 points per edge and the polar face encloses its pole.
        let face2 = CellID(try LatLng(latitude: 90, longitude: 0)).parent(level: 0)
        let faceOutline = GeoOutline.cell(face2, pointsPerEdge: GeoOutline.pointsPerEdge(level: 0))
        #expect(faceOutline.ring.count == 64)
        #expect(faceOutline.pole == 1)
        #expect(GeoOutline.pointsPerEdge(level: 13) == 1)
    }

    @Test func segmentCountFollowsThePixelSize() {
        #expect(GeoOutline.segments(forPixelRadius: 0) == 16)
        #expect(GeoOutline.segments(forPixelRadius: 48) == 101)
        #expect(GeoOutline.segments(forPixelRadius: 1e6) == 360)
        #expect(GeoOutline.segments(forPixelRadius: .nan) == 360)
    }
}
