import Geodesy
import Testing
@testable import SpatialIndex

/// Checks an index against brute force: stabbing, within-distance and k-nearest (both measures)
/// must give exactly the same ids (and, for nearest, the same distances and order).
enum IndexOracle {
    static func expectSameAnswers<I: FenceIndex>(
        _ index: I, as brute: BruteForceIndex, at points: [LatLng], seed: UInt64,
        _ label: String, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(index.count == brute.count, "\(label): count, seed \(seed)", sourceLocation: sourceLocation)
        var rng = SplitMix64(seed: seed ^ 0x5EED)
        var buffer: [Int32] = []
        // The batch entry point gives every point's degree answer (as (fix, fence) pairs).
        let latitudes = points.map(\.latitude), longitudes = points.map(\.longitude)
        var batch = [[Int32]](repeating: [], count: points.count)
        latitudes.withUnsafeBufferPointer { lat in
            longitudes.withUnsafeBufferPointer { lon in
                index.forEachContaining(latitudes: lat, longitudes: lon) { chunk in
                    for hit in chunk { batch[Int(hit.fix)].append(hit.fence) }
                }
            }
        }
        for (n, point) in points.enumerated() {
            let fast = UnitVector(fastLatitude: point.latitude, longitude: point.longitude)
            #expect(
                batch[n].sorted() == brute.fencesContaining(fast),
                "\(label): batch at \(point) (#\(n)), seed \(seed)", sourceLocation: sourceLocation)
        }
        for (n, point) in points.enumerated() {
            let p = point.unitVector
            let expected = brute.fencesContaining(p)
            let got = index.fencesContaining(p)
            #expect(got == expected, "\(label): stab at \(point) (#\(n)), seed \(seed)", sourceLocation: sourceLocation)
            let c = index.stab(p, into: &buffer)
            #expect(
                c == expected.count && buffer.sorted() == expected,
                "\(label): stab(into:) at \(point), seed \(seed)", sourceLocation: sourceLocation)
            var stats = QueryStats()
            var viaStats: [Int32] = []
            index.forEachContaining(p, stats: &stats) { viaStats.append($0) }
            #expect(
                viaStats.sorted() == expected && stats.hits == expected.count && stats.candidates >= stats.hits,
                "\(label): stats variant at \(point), seed \(seed)", sourceLocation: sourceLocation)

            // The degree entry point answers for the fast conversion of the same degrees.
            let fast = UnitVector(fastLatitude: point.latitude, longitude: point.longitude)
            var viaDegrees: [Int32] = []
            index.forEachContaining(latitude: point.latitude, longitude: point.longitude) { viaDegrees.append($0) }
            #expect(
                viaDegrees.sorted() == brute.fencesContaining(fast),
                "\(label): degrees at \(point), seed \(seed)", sourceLocation: sourceLocation)
            var degreeStats = QueryStats()
            var viaDegreeStats: [Int32] = []
            index.forEachContaining(latitude: point.latitude, longitude: point.longitude, stats: &degreeStats) {
                viaDegreeStats.append($0)
            }
            #expect(
                viaDegreeStats.sorted() == viaDegrees.sorted() && degreeStats.hits == viaDegrees.count,
                "\(label): degrees with stats at \(point), seed \(seed)", sourceLocation: sourceLocation)

            let d = [0, 1, 1000, 100_000, 3_000_000, 30_000_000][Int(rng.next() % 6)] * rng.nextUnit()
            #expect(
                index.fences(withinMeters: d, of: p) == brute.fences(withinMeters: d, of: p),
                "\(label): within \(d) m of \(point), seed \(seed)", sourceLocation: sourceLocation)

            let k = [1, 3, 10, 50][Int(rng.next() % 4)]
            let measure: FenceDistance = rng.next() % 2 == 0 ? .center : .edge
            let maxD: Double = rng.next() % 3 == 0 ? rng.nextUnit() * 2_000_000 : .infinity
            let nb = brute.nearest(to: p, k: k, by: measure, maxDistanceMeters: maxD)
            let ni = index.nearest(to: p, k: k, by: measure, maxDistanceMeters: maxD)
            #expect(
                ni == nb, "\(label): nearest k=\(k) by \(measure) max \(maxD) at \(point), seed \(seed)",
                sourceLocation: sourceLocation)
        }
    }
}
