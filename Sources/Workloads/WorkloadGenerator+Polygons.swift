#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import GeoCells
import Geodesy

/// A generated polygon fence with what the visiting devices need: the point it was drawn
/// around and spots inside it (degrees).
struct PolygonSite {
    var polygon: WorkloadPolygon
    var center: (Double, Double)
    /// Points strictly inside the polygon, one per shell vertex in order: spot `i` on the segment
    /// from the center to vertex `i` (inside, as the shell is star-shaped about the center) and
    /// outside the hole. The segment between neighboring spots `i` and `i + 1` lies in the
    /// triangle (center, vertex `i`, vertex `i + 1`), so inside the shell too, and (with a hole:
    /// spots beyond 0.55 of the vertex radii, angles at most 1.6 × 2π/6 apart) farther from the
    /// center than the hole reaches (0.55 × cos 0.84 = 0.37 > 0.3 of the smallest radius).
    var spots: [(Double, Double)]
    /// The largest distance from the center to a shell vertex, meters.
    var reach: Double
}

extension WorkloadGenerator {
    /// Appends `spec.polygons` polygon fences to `fences` (ids and POI ids continuing after the
    /// circles', tier 0), each row its polygon's enclosing circle, and returns the polygons.
    ///
    /// Places are apart, as building outlines are: a polygon whose enclosing circle comes within
    /// 50 m of an earlier one's is drawn again (up to 100 times, then kept).
    /// A shape is star-shaped about a point drawn near a US city as the POIs are (sigma 10 km):
    /// vertices at jittered, increasing angles and radii `size × (1 - c u)` with concavity `c` in
    /// 0.1-0.5, so it is simple and usually concave; a quarter have a hole (a smaller star of
    /// 6-10 vertices around the center, clockwise, inside 0.3 of the smallest shell radius).
    /// Sizes and vertex counts by ``WorkloadPolygon/Kind``: 60 % buildings, 25 % campuses,
    /// 15 % parks. Each is checked with GeoCells' `Polygon` (and drawn again if invalid, which
    /// the construction rules out). The circle's radius is the enclosing cap's plus 2 cm for
    /// the rounding of its center, rounded up to the millimeter, so the row contains the polygon.
    static func makePolygonFences(_ spec: WorkloadSpec, _ rng: inout SplitMix64, into fences: inout [WorkloadFence])
        -> [PolygonSite]
    {
        precondition(spec.polygons >= 0, "invalid workload spec: polygons < 0")
        var sites: [PolygonSite] = []
        sites.reserveCapacity(spec.polygons)
        // The circles placed so far, by grid cell of 0.05 degrees (wider than two of the largest).
        var placed: [Int64: [(UnitVector, Double)]] = [:]
        func key(_ lat: Double, _ lon: Double, _ dy: Int = 0, _ dx: Int = 0) -> Int64 {
            Int64((lat / 0.05).rounded(.down) + Double(dy)) << 32 | Int64((lon / 0.05).rounded(.down) + Double(dx)) & 0xFFFF_FFFF
        }
        func clear(_ c: UnitVector, _ r: Double, _ lat: Double, _ lon: Double) -> Bool {
            for dy in -1...1 {
                for dx in -1...1 {
                    for (other, q) in placed[key(lat, lon, dy, dx)] ?? [] where c.chord2(to: other).squareRoot() * Earth.meanRadius < r + q + 50 {
                        return false
                    }
                }
            }
            return true
        }
        for j in 0..<spec.polygons {
            let id = Int32(fences.count)
            var attempt = 0
            var (polygon, site, cap): (Polygon, PolygonSite, Cap)
            repeat {
                let position = cityPoint(&rng, sigma: 10_000)
                let center = (round7(position.0), round7(position.1))
                (polygon, site) = polygonSite(id: id, around: center, &rng)
                cap = polygon.enclosingCap
                attempt += 1
            } while attempt < 100
                && !clear(cap.center, cap.radius.meters, cap.center.latLng.latitude, cap.center.latLng.longitude)
            let c = cap.center.latLng
            let radius = ((cap.radius.meters + 0.02) * 1000).rounded(.up) / 1000
            fences.append(
                WorkloadFence(
                    id: id, latitude: round7(c.latitude), longitude: round7(c.longitude), radius: radius,
                    poiID: Int32(spec.pois + j), tier: 0))
            sites.append(site)
            placed[key(c.latitude, c.longitude), default: []].append((cap.center, cap.radius.meters))
        }
        return sites
    }

    /// One valid star-shaped polygon around `center` (degrees, already rounded) and its site.
    static func polygonSite(id: Int32, around center: (Double, Double), _ rng: inout SplitMix64) -> (Polygon, PolygonSite) {
        let u = rng.nextUnit()
        let kind: WorkloadPolygon.Kind = u < 0.6 ? .building : u < 0.85 ? .campus : .park
        let (smallest, largest, fewest, most): (Double, Double, Int, Int) =
            switch kind {
            case .building: (40, 120, 6, 12)
            case .campus: (150, 450, 8, 20)
            case .park: (300, 1_200, 10, 28)
            }
        func point(_ r: Double, _ theta: Double) -> LatLng {
            let p = offset(center.0, center.1, north: r * sin(theta), east: r * cos(theta))
            return LatLng(uncheckedLatitude: round7(p.0), longitude: round7(p.1))
        }
        func count(_ lo: Int, _ hi: Int) -> Int { lo + Int(rng.next() % UInt64(hi - lo + 1)) }
        while true {
            let size = rng.uniform(smallest, largest)
            let n = count(fewest, most)
            let concavity = rng.uniform(0.1, 0.5)
            let base = rng.uniform(0, 2 * Double.pi)
            var shell: [LatLng] = [], radii: [Double] = [], angles: [Double] = []
            for i in 0..<n {
                let theta = base + 2 * Double.pi * (Double(i) + rng.uniform(-0.3, 0.3)) / Double(n)
                let r = size * (1 - concavity * rng.nextUnit())
                shell.append(point(r, theta))
                radii.append(r)
                angles.append(theta)
            }
            var rings = [shell]
            let hasHole = rng.nextUnit() < 0.25
            if hasHole {
                let m = count(6, 10)
                let h = 0.3 * (radii.min() ?? 0)
                var hole: [LatLng] = []
                for i in 0..<m {
                    let theta = base + 2 * Double.pi * (Double(i) + rng.uniform(-0.3, 0.3)) / Double(m)
                    hole.append(point(h * (1 - 0.3 * rng.nextUnit()), theta))
                }
                rings.append(hole.reversed())
            }
            // Spots between 15 % and 60 % of the way to a vertex (55 % to 80 % around a hole).
            let (lo, hi) = hasHole ? (0.55, 0.8) : (0.15, 0.6)
            var spots: [(Double, Double)] = []
            for i in 0..<n {
                let f = rng.uniform(lo, hi)
                let p = point(f * radii[i], angles[i])
                spots.append((p.latitude, p.longitude))
            }
            guard let polygon = try? Polygon(latLngRings: rings) else { continue }
            let site = PolygonSite(
                polygon: WorkloadPolygon(id: id, kind: kind, rings: rings), center: center, spots: spots,
                reach: radii.max() ?? 0)
            return (polygon, site)
        }
    }
}
