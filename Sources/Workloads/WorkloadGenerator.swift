#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Geodesy

/// How GPS error is added to the true track.
public enum NoiseModel: String, Sendable, CaseIterable {
    /// Independent Gaussian error per axis with sigma = accuracy / 2.
    case gaussian
    /// What phones really do: temporally correlated error (AR(1), ~60 s memory), 6 % coarse
    /// Wi-Fi/cell fixes (100-1,500 m, honestly reported) and 1.5 % multipath outliers whose
    /// error is 4-8x what their accuracy claims.
    case realistic
}

/// The parameters of a synthetic world; the same seed gives the same workload, bit for bit.
public struct WorkloadSpec: Hashable, Sendable {
    /// Number of POIs (3 fences each by default), >= 0.
    public var pois: Int
    /// Number of devices, >= 1.
    public var devices: Int
    /// Total number of fixes, written exactly: `fixes / devices` per device, one more for the
    /// first `fixes % devices` devices (devices beyond `fixes` have none).
    public var fixes: Int
    /// Seed of every random choice.
    public var seed: UInt64
    /// How the fixes' GPS error is drawn.
    public var noise: NoiseModel
    /// Approach-tier radii in meters around every POI (default 1, 3 and 5 miles).
    public var tierRadii: [Double]
    /// Number of polygon fences (>= 0), with ids after the circular ones. With any, the
    /// devices travel from polygon to polygon and stay inside each for a while
    /// (``WorkloadGenerator``'s visiting model) instead of wandering.
    public var polygons: Int

    /// A specification; `pois`, `fixes` and `polygons` >= 0, `devices` >= 1.
    public init(
        pois: Int, devices: Int, fixes: Int, seed: UInt64, noise: NoiseModel = .realistic,
        tierRadii: [Double] = [1, 3, 5].map { $0 * metersPerMile }, polygons: Int = 0
    ) {
        self.pois = pois
        self.devices = devices
        self.fixes = fixes
        self.seed = seed
        self.noise = noise
        self.tierRadii = tierRadii
        self.polygons = polygons
    }
}

/// A deterministic generator of the same kind of world as the workload script that writes the
/// benchmark's reference files (the formats of docs/WORKLOADS.md):
/// POIs clustered around US cities plus a 10 % uniform sprinkle, tiered fences around each,
/// and per-device trajectories that dwell, walk and drive, sampled every 15-60 s, with GPS
/// noise and the noise-free truth. It does not reproduce the Python output byte for byte
/// (different random streams), only its statistics.
///
/// Every coordinate is rounded to the precision the CSV files carry (1e-7 degrees, 1 mm,
/// 1 ms, 0.1 m accuracy), so a workload written and read back is identical to the one in memory.
public enum WorkloadGenerator {
    /// The fences, fixes and polygons of `spec` (deterministic for its seed).
    /// O(pois + fixes + polygon vertices).
    /// - Precondition: `spec.pois >= 0`, `spec.devices >= 1`, `spec.fixes >= 0`, `spec.polygons >= 0`.
    public static func make(_ spec: WorkloadSpec) -> Workload {
        guard spec.polygons > 0 else { return Workload(fences: fences(spec), fixes: fixes(spec)) }
        var rng = SplitMix64(seed: spec.seed)
        var fences = makeFences(spec, &rng)
        let sites = makePolygonFences(spec, &rng, into: &fences)
        precondition(spec.devices > 0 && spec.fixes >= 0, "invalid workload spec")
        var fixRNG = SplitMix64(seed: spec.seed ^ 0x9E37_79B9_7F4A_7C15)
        return Workload(fences: fences, fixes: makeVisits(spec, polygons: sites, &fixRNG), polygons: sites.map(\.polygon))
    }

    /// The circular fences of `spec` alone (they depend on `pois`, `tierRadii` and `seed` only).
    /// - Precondition: `spec.pois >= 0`.
    public static func fences(_ spec: WorkloadSpec) -> [WorkloadFence] {
        precondition(spec.pois >= 0, "invalid workload spec: pois < 0")
        var rng = SplitMix64(seed: spec.seed)
        return makeFences(spec, &rng)
    }

    /// The wandering fixes of `spec` alone (they depend on `devices`, `fixes`, `noise` and `seed`
    /// only), so one stream of fixes can be run against fence sets of several sizes. A spec with
    /// polygons gets visiting fixes from ``make(_:)`` instead.
    /// - Precondition: `spec.devices >= 1`, `spec.fixes >= 0`.
    public static func fixes(_ spec: WorkloadSpec) -> FixStream {
        precondition(spec.devices > 0 && spec.fixes >= 0, "invalid workload spec")
        // An independent stream: the golden-ratio constant keeps it apart from the fences' one.
        var rng = SplitMix64(seed: spec.seed ^ 0x9E37_79B9_7F4A_7C15)
        return makeFixes(spec, &rng)
    }

    static func makeFences(_ spec: WorkloadSpec, _ rng: inout SplitMix64) -> [WorkloadFence] {
        var fences: [WorkloadFence] = []
        fences.reserveCapacity(spec.pois * spec.tierRadii.count)
        let uniformCount = spec.pois / 10  // a 10 % sprinkle outside the city clusters
        for poi in 0..<spec.pois {
            let position: (Double, Double)
            if poi < spec.pois - uniformCount {
                position = cityPoint(&rng, sigma: 25_000)
            } else {
                let box = conterminousUS
                position = (rng.uniform(box.south, box.north), rng.uniform(box.west, box.east))
            }
            let lat = round7(position.0), lon = round7(position.1)
            for (tier, radius) in spec.tierRadii.enumerated() {
                fences.append(
                    WorkloadFence(
                        id: Int32(fences.count), latitude: lat, longitude: lon,
                        radius: (radius * 1000).rounded() / 1000, poiID: Int32(poi), tier: Int32(tier)))
            }
        }
        return fences
    }

    static func makeFixes(_ spec: WorkloadSpec, _ rng: inout SplitMix64) -> FixStream {
        // Exactly spec.fixes: the first (fixes mod devices) devices get one fix more than the others.
        let perDevice = spec.fixes / spec.devices, extra = spec.fixes % spec.devices
        var fixes = FixStream()
        fixes.reserveCapacity(spec.fixes, truth: true)
        let speeds = [0.0, 1.4, 13.0]  // dwell, walk, drive (m/s)
        let modeWeights = [0.35, 0.60, 1.0]  // cumulative: 35 % dwell, 25 % walk, 40 % drive

        for d in 0..<Swift.min(spec.devices, spec.fixes) {  // devices past the fixes have none
            let (lat0, lon0) = cityPoint(&rng, sigma: 20_000)
            var t = rng.uniform(0, 3600)
            var heading = rng.uniform(0, 2 * Double.pi)
            var north = 0.0, east = 0.0
            var mode = 0
            var errN = 0.0, errE = 0.0  // AR(1) state of the correlated error, in sigmas
            for k in 0..<(perDevice + (d < extra ? 1 : 0)) {
                let dt = rng.uniform(15, 60)
                t += dt
                if k % 20 == 0 { mode = rng.weightedIndex(modeWeights) }  // segments of ~20 fixes
                let speed = speeds[mode] * rng.uniform(0.6, 1.4)
                heading += 0.35 * rng.gaussian()
                north += speed * dt * cos(heading)
                east += speed * dt * sin(heading)
                let truth = offset(lat0, lon0, north: north, east: east)
                let (noisy, accuracy) = observe(truth, first: k == 0, dt: dt, spec.noise, &errN, &errE, &rng)
                append(&fixes, device: d, time: t, observed: noisy, accuracy: accuracy, truth: (round7(truth.0), round7(truth.1)))
            }
        }
        return sortedByTime(fixes)
    }

    /// What a phone reports at `truth` (degrees): a position with GPS error of `noise` and its
    /// accuracy in meters. `errN`, `errE` carry the correlated error (in sigmas) from the
    /// device's previous fix, `dt` seconds ago; `first` starts it afresh.
    static func observe(
        _ truth: (Double, Double), first: Bool, dt: Double, _ noise: NoiseModel, _ errN: inout Double,
        _ errE: inout Double, _ rng: inout SplitMix64
    ) -> ((Double, Double), Double) {
        // Gamma(2, 8) as the sum of two exponentials, plus a 3 m floor; capped at 150 m.
        var accuracy = min(150, max(3, 8 * (rng.exponential() + rng.exponential()) + 3))
        let noisy: (Double, Double)
        switch noise {
        case .gaussian:
            let sigma = accuracy / 2
            noisy = offset(truth.0, truth.1, north: rng.gaussian() * sigma, east: rng.gaussian() * sigma)
        case .realistic:
            if rng.nextUnit() < 0.06 {  // coarse Wi-Fi/cell fix, honest accuracy 100-1500 m
                accuracy = exp(rng.uniform(log(100.0), log(1500.0)))
            }
            let rho = exp(-dt / 60)  // ~60 s memory
            let q = (1 - rho * rho).squareRoot()
            let zn = rng.gaussian(), ze = rng.gaussian()
            if first { errN = zn; errE = ze } else { errN = rho * errN + q * zn; errE = rho * errE + q * ze }
            // Multipath: error far larger than the reported accuracy.
            let boost = rng.nextUnit() < 0.015 ? rng.uniform(4, 8) : 1
            let sigma = accuracy / 2 * boost
            noisy = offset(truth.0, truth.1, north: errN * sigma, east: errE * sigma)
        }
        return (noisy, accuracy)
    }

    /// Appends one generated fix of `device` to `fixes` at the precision the CSV files carry:
    /// `time` (seconds) to 1 ms, the `observed` position (degrees) to 1e-7 degrees, `accuracy`
    /// to 0.1 m; `truth` as given (already at 1e-7 degrees).
    static func append(
        _ fixes: inout FixStream, device: Int, time: Double, observed: (Double, Double), accuracy: Double, truth: (Double, Double)
    ) {
        fixes.device.append(Int32(device))
        fixes.time.append((time * 1000).rounded() / 1000)
        fixes.latitude.append(round7(observed.0))
        fixes.longitude.append(round7(observed.1))
        fixes.accuracy.append((accuracy * 10).rounded() / 10)
        fixes.trueLatitude.append(truth.0)
        fixes.trueLongitude.append(truth.1)
    }

    /// `fixes` sorted by time; ties keep row order (a stable sort by (t, row)).
    static func sortedByTime(_ fixes: FixStream) -> FixStream {
        let time = fixes.time
        var order = Array(0..<fixes.count)
        order.sort { time[$0] < time[$1] || (time[$0] == time[$1] && $0 < $1) }
        var out = FixStream()
        out.device = order.map { fixes.device[$0] }
        out.time = order.map { time[$0] }
        out.latitude = order.map { fixes.latitude[$0] }
        out.longitude = order.map { fixes.longitude[$0] }
        out.accuracy = order.map { fixes.accuracy[$0] }
        out.trueLatitude = order.map { fixes.trueLatitude[$0] }
        out.trueLongitude = order.map { fixes.trueLongitude[$0] }
        return out
    }

    /// A point near a city drawn by population weight: 60 % from a dense core
    /// (sigma * 0.35), the rest from the suburbs (sigma), Gaussian per axis in meters.
    static func cityPoint(_ rng: inout SplitMix64, sigma: Double) -> (Double, Double) {
        let city = usCities[rng.weightedIndex(cityCumulativeWeights)]
        let scale = rng.nextUnit() < 0.6 ? sigma * 0.35 : sigma
        return offset(city.latitude, city.longitude, north: rng.gaussian() * scale, east: rng.gaussian() * scale)
    }

    static let cityCumulativeWeights: [Double] = {
        var sum = 0.0
        return usCities.map {
            sum += $0.weight; return sum
        }
    }()

    /// Small-offset move on the sphere (equirectangular; fine below ~100 km), latitude clamped
    /// to ±89.9 and longitude wrapped, as the Python generator does.
    static func offset(_ lat: Double, _ lon: Double, north: Double, east: Double) -> (Double, Double) {
        let dLat = degrees(radians: north / Earth.meanRadius)
        let dLon = degrees(radians: east / (Earth.meanRadius * cos(radians(degrees: lat))))
        let lat2 = min(89.9, max(-89.9, lat + dLat))
        return (lat2, LatLng.wrapLongitude(lon + dLon))
    }

    /// Rounds degrees to the 7 decimals the CSV files carry (about 1 cm).
    @inline(__always)
    static func round7(_ x: Double) -> Double { (x * 1e7).rounded() / 1e7 }
}
