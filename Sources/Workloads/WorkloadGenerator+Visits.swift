#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Geodesy

extension WorkloadGenerator {
    /// The fixes of devices that visit polygon fences, with the same sampling (every 15-60 s)
    /// and the same GPS error as the wandering devices (``observe(_:first:dt:_:_:_:_:)``).
    ///
    /// Each device starts 200-1,500 m outside a random polygon's farthest vertex and travels to a spot inside it
    /// (driving at 13 m/s ± 40 % while over 1.5 km away, else walking at 1.4 m/s ± 40 %, the
    /// heading wobbling by 0.15 rad), stays 5-45 minutes (standing at a spot, and with
    /// probability 0.3 per fix walking at 0.4-1.2 m/s to a neighboring spot of the same
    /// polygon, along a segment that stays inside it, as a visitor keeps to the inside), then
    /// leaves for the nearest of four polygons drawn from the 24 around it in a (0.1° latitude
    /// band, longitude) order (staying on when all four are the one it is in), passing whatever
    /// other fences lie on the way. Fix counts per
    /// device and the time order are as in the wandering model.
    static func makeVisits(_ spec: WorkloadSpec, polygons sites: [PolygonSite], _ rng: inout SplitMix64) -> FixStream {
        precondition(!sites.isEmpty, "visits need polygons")
        let perDevice = spec.fixes / spec.devices, extra = spec.fixes % spec.devices
        var fixes = FixStream()
        fixes.reserveCapacity(spec.fixes, truth: true)
        let order = sites.indices.sorted {
            let a = sites[$0].center, b = sites[$1].center
            return ((a.0 * 10).rounded(.down), a.1, $0) < ((b.0 * 10).rounded(.down), b.1, $1)
        }
        var rank = [Int](repeating: 0, count: sites.count)
        for (r, s) in order.enumerated() { rank[s] = r }
        func draw(_ n: Int) -> Int { Int(rng.next() % UInt64(n)) }

        for d in 0..<Swift.min(spec.devices, spec.fixes) {
            var target = draw(sites.count)
            let bearing = rng.uniform(0, 2 * Double.pi), away = sites[target].reach + rng.uniform(200, 1_500)
            var position = offset(sites[target].center.0, sites[target].center.1, north: away * cos(bearing), east: away * sin(bearing))
            var spot = draw(sites[target].spots.count)
            var aim = sites[target].spots[spot]
            var staying = false
            var leaveAt = 0.0
            var t = rng.uniform(0, 3600)
            var errN = 0.0, errE = 0.0
            for k in 0..<(perDevice + (d < extra ? 1 : 0)) {
                let dt = rng.uniform(15, 60)
                t += dt
                if staying && t >= leaveAt {
                    // Leave for the nearest of four polygons near this one in the band order.
                    staying = false
                    var best = target, bestDistance = Double.infinity
                    for _ in 0..<4 {
                        let r = Swift.min(sites.count - 1, Swift.max(0, rank[target] + draw(25) - 12))
                        let s = order[r]
                        let (n, e) = metersBetween(position, sites[s].center)
                        let distance = (n * n + e * e).squareRoot()
                        if s != target && distance < bestDistance { (best, bestDistance) = (s, distance) }
                    }
                    if best == target {
                        // No other polygon drawn: stay on (a straight walk to another spot
                        // could cut across the outside of a concave polygon).
                        staying = true
                        leaveAt = t + rng.uniform(300, 2_700)
                    } else {
                        target = best
                        spot = draw(sites[target].spots.count)
                        aim = sites[target].spots[spot]
                    }
                } else if staying && position == aim && rng.nextUnit() < 0.3 {
                    // On to a neighboring spot: the segment stays inside (see ``PolygonSite``).
                    let n = sites[target].spots.count
                    spot = (spot + (rng.nextUnit() < 0.5 ? 1 : n - 1)) % n
                    aim = sites[target].spots[spot]
                }
                let (dn, de) = metersBetween(position, aim)
                let distance = (dn * dn + de * de).squareRoot()
                let speed =
                    staying ? rng.uniform(0.4, 1.2) : (distance > 1_500 ? 13 : 1.4) * rng.uniform(0.6, 1.4)
                let wobble = 0.15 * rng.gaussian()
                if speed * dt >= distance {
                    position = aim
                    if !staying {
                        staying = true
                        leaveAt = t + rng.uniform(300, 2_700)
                    }
                } else if distance > 0 {
                    let step = speed * dt / distance
                    let n = step * (dn * cos(wobble) - de * sin(wobble))
                    let e = step * (dn * sin(wobble) + de * cos(wobble))
                    position = offset(position.0, position.1, north: n, east: e)
                }
                let truth = (round7(position.0), round7(position.1))
                let (noisy, accuracy) = observe(truth, first: k == 0, dt: dt, spec.noise, &errN, &errE, &rng)
                append(&fixes, device: d, time: t, observed: noisy, accuracy: accuracy, truth: truth)
            }
        }
        return sortedByTime(fixes)
    }

    /// The offset from `a` to `b` (degrees) in meters north and east (equirectangular at `a`;
    /// fine below ~100 km).
    static func metersBetween(_ a: (Double, Double), _ b: (Double, Double)) -> (Double, Double) {
        let north = radians(degrees: b.0 - a.0) * Earth.meanRadius
        let east = radians(degrees: LatLng.wrapLongitude(b.1 - a.1)) * Earth.meanRadius * cos(radians(degrees: a.0))
        return (north, east)
    }
}
