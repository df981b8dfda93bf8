// libFuzzer harness of GeoCells (compiled into module GeoCells by scripts/fuzz-libs).
// Mode byte 0 (even): the rest is a vertex list, 3 bytes a vertex (a coarse grid of latitudes and
// longitudes, poles and the antimeridian included, nudged by up to 127e-9 degrees so that
// near-degenerate edges come up), a ring break where the first byte's high bit is set.
// Polygon(latLngRings:) accepts or throws a PolygonError; what it accepts is queried (contains,
// distances, areas, cell relations, the enclosing cap, coverings), and the covering must hold
// every vertex and every point found inside. Mode byte odd: the rest is a cell token.
import Geodesy

#if canImport(Glibc)
import Glibc
#endif

func covers(_ cells: [CellID], _ p: UnitVector) -> Bool {
    let leaf = CellID(p)
    return cells.contains { $0.contains(leaf) }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size >= 1 else { return 0 }
    let mode = data[0]
    let rest = Array(UnsafeBufferPointer(start: data + 1, count: size - 1))
    if mode & 1 == 1 {
        let text = String(decoding: rest, as: UTF8.self)
        let parsed = CellID.parseToken(text)
        if let cell = try? CellID(token: text) {
            check(parsed == cell && cell.isValid, "init(token:) and parseToken disagree on \(text)")
            check((try? CellID(token: cell.token)) == cell, "token round trip of \(text)")
            _ = cell.level; _ = cell.parent(); _ = Cell(cell).exactArea()
        }
        if let parsed { check(CellID.parseToken(parsed.token) == parsed, "parseToken round trip of \(text)") }
        return 0
    }
    var rings: [[LatLng]] = [[]]
    var i = 0
    while i + 3 <= rest.count && rings.count <= 8 {
        let a = rest[i], b = rest[i + 1], c = Int8(bitPattern: rest[i + 2])
        if a & 0x80 != 0 && !rings[rings.count - 1].isEmpty { rings.append([]) }
        let grid = Double(a & 0x7f)
        var lat = grid <= 120 ? (grid - 60) * 1.5 : [90, -90, 89.999999, -89.999999, 45, 0, 1e-300][Int(grid) - 121]
        var lon = b <= 240 ? (Double(b) - 120) * 1.5 : [180, -180, 179.999999, -179.999999, 0.5, 1e-300, -1e-300, 90, -90, 135, 1, -1, 2, 3, 60][Int(b) - 241]
        lat += Double(c) * 1e-9 * Double(a >> 7 == 0 ? 1 : -1)
        lon += Double(c) * 1e-9
        lat = Swift.min(90, Swift.max(-90, lat))
        lon = Swift.min(180, Swift.max(-180, lon))
        rings[rings.count - 1].append(try! LatLng(latitude: lat, longitude: lon))
        i += 3
    }
    let polygon: Polygon
    do {
        polygon = try Polygon(latLngRings: rings)
    } catch {
        _ = "\(error)"
        return 0
    }
    check(polygon.loopCount == rings.count, "loops")
    var probes: [UnitVector] = polygon.vertices
    for k in 0..<polygon.vertices.count {
        let (a, b) = polygon.edge(k)
        probes.append(UnitVector(x: a.x + b.x, y: a.y + b.y, z: a.z + b.z).normalized)
        probes.append(UnitVector(x: -a.x, y: -a.y, z: -a.z))
    }
    probes += [UnitVector(x: 0, y: 0, z: 1), UnitVector(x: 0, y: 0, z: -1), UnitVector(x: 1, y: 0, z: 0)]
    var inside: [UnitVector] = []
    for p in probes {
        let c = polygon.contains(p)
        if c { inside.append(p) }
        _ = polygon.boundaryDistance(to: p)
        let signed = polygon.signedBoundaryDistanceMeters(to: p)
        check(!signed.isNaN, "NaN signed distance")
        _ = polygon.mayIntersect(Cell(CellID(p).parent(level: 10)))
        _ = polygon.contains(Cell(CellID(p).parent(level: 12)))
    }
    for k in 0..<polygon.loopCount { _ = polygon.loopArea(k); _ = polygon.isHole(k) }
    let area = polygon.area
    check(area.isFinite && area >= 0 && area <= 4 * Double.pi + 1e-9, "area \(area)")
    let cap = polygon.enclosingCap
    for v in polygon.vertices { check(cap.contains(v), "the enclosing cap misses a vertex") }
    var bound: [CellID] = []
    polygon.cellUnionBound(into: &bound)
    for v in polygon.vertices { check(covers(bound, v), "cellUnionBound misses a vertex") }
    for coverer in [try! RegionCoverer(maxCells: 8), try! RegionCoverer(maxCells: 20, minLevel: 2, maxLevel: 16, levelMod: 2)] {
        let covering = coverer.covering(of: polygon)
        check(!covering.isEmpty, "empty covering")
        for v in polygon.vertices { check(covers(covering, v), "the covering misses a vertex") }
        for p in inside { check(covers(covering, p), "the covering misses a point inside") }
        for cell in coverer.interiorCovering(of: polygon) {
            check(polygon.contains(Cell(cell).center), "an interior cell's center is outside")
        }
    }
    return 0
}
