import Foundation
import Geodesy
@testable import SpatialIndex

/// Shared helpers of the SpatialIndex tests: seeded random fences and points that stress the
/// poles, the antimeridian, duplicate centers, and radii from 0 m to the whole sphere.
enum TestWorld {
    static func uniform(_ rng: inout SplitMix64) -> LatLng {
        let z = 2 * rng.nextUnit() - 1
        let lat = asin(z) * 180 / .pi
        let lon = rng.nextUnit() * 360 - 180
        return LatLng(uncheckedLatitude: lat, longitude: lon)
    }

    /// The point `meters` away from `from` along initial bearing `bearingDegrees` (sphere).
    static func destination(_ from: LatLng, bearingDegrees: Double, meters: Double) -> LatLng {
        let d = meters / Earth.meanRadius
        let b = bearingDegrees * .pi / 180
        let phi1 = from.latitude * .pi / 180, lambda1 = from.longitude * .pi / 180
        let phi2 = asin(sin(phi1) * cos(d) + cos(phi1) * sin(d) * cos(b))
        let lambda2 = lambda1 + atan2(sin(b) * sin(d) * cos(phi1), cos(d) - sin(phi1) * sin(phi2))
        return LatLng(
            uncheckedLatitude: phi2 * 180 / .pi,
            longitude: LatLng.wrapLongitude(lambda2 * 180 / .pi))
    }

    /// Awkward places: poles, the antimeridian, the prime meridian at the Equator.
    static let specialPlaces: [LatLng] = [
        LatLng(uncheckedLatitude: 90, longitude: 0), LatLng(uncheckedLatitude: -90, longitude: 0),
        LatLng(uncheckedLatitude: 0, longitude: 180), LatLng(uncheckedLatitude: 0, longitude: -180),
        LatLng(uncheckedLatitude: 12.5, longitude: 179.9999), LatLng(uncheckedLatitude: -40, longitude: -179.9995),
        LatLng(uncheckedLatitude: 89.99, longitude: 45), LatLng(uncheckedLatitude: -89.995, longitude: -135),
        LatLng(uncheckedLatitude: 0, longitude: 0), LatLng(uncheckedLatitude: 60.17, longitude: 24.94)
    ]

    static func radius(_ rng: inout SplitMix64) -> Double {
        switch rng.next() % 10 {
        case 0: return 0
        case 1: return 1
        case 2: return 5_000_000  // huge: a fifth of the globe
        case 3: return [1609.344, 4828.032, 8046.72][Int(rng.next() % 3)]
        case 4 where rng.next() % 8 == 0: return 25_000_000  // beyond πR: the whole sphere
        default: return exp(log(1.0) + rng.nextUnit() * (log(500_000.0) - log(1.0)))  // 1 m ... 500 km
        }
    }

    /// `count` fences with ids 0..<count (shuffled order of ids when `shuffleIDs`).
    static func fences(_ count: Int, _ rng: inout SplitMix64) -> [Fence] {
        var out: [Fence] = []
        var centers: [LatLng] = []
        for id in 0..<count {
            let center: LatLng
            switch rng.next() % 6 {
            case 0: center = specialPlaces[Int(rng.next() % UInt64(specialPlaces.count))]
            case 1 where !centers.isEmpty: center = centers[Int(rng.next() % UInt64(centers.count))]  // duplicate
            case 2:
                let base = specialPlaces[Int(rng.next() % UInt64(specialPlaces.count))]
                center = destination(base, bearingDegrees: rng.nextUnit() * 360, meters: rng.nextUnit() * 200_000)
            default: center = uniform(&rng)
            }
            centers.append(center)
            out.append(try! Fence(id: Int32(id), center: center, radiusMeters: radius(&rng)))
        }
        return out
    }

    /// Query points: uniform, special places, fence centers, and points near and exactly on
    /// fence boundaries.
    static func points(_ count: Int, near fences: [Fence], _ rng: inout SplitMix64) -> [LatLng] {
        var out: [LatLng] = []
        for _ in 0..<count {
            switch rng.next() % 6 {
            case 0: out.append(specialPlaces[Int(rng.next() % UInt64(specialPlaces.count))])
            case 1 where !fences.isEmpty: out.append(fences[Int(rng.next() % UInt64(fences.count))].center)
            case 2 where !fences.isEmpty:
                let f = fences[Int(rng.next() % UInt64(fences.count))]
                out.append(destination(f.center, bearingDegrees: rng.nextUnit() * 360, meters: f.radiusMeters))
            case 3 where !fences.isEmpty:
                let f = fences[Int(rng.next() % UInt64(fences.count))]
                out.append(
                    destination(
                        f.center, bearingDegrees: rng.nextUnit() * 360,
                        meters: f.radiusMeters * (0.5 + rng.nextUnit())))
            default: out.append(uniform(&rng))
            }
        }
        return out
    }
}

/// Loads the shared geofence oracle copied into Fixtures/.
enum GeofenceFixture {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures")

    static func rows(_ name: String) throws -> [[Substring]] {
        let text = try String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8)
        return text.split(whereSeparator: \.isNewline).dropFirst().map {
            $0.split(separator: ",", omittingEmptySubsequences: false)
        }
    }

    static func fences() throws -> [Fence] {
        try rows("fences.csv").map { r in
            try Fence(
                id: Int32(r[0])!, latitude: Double(r[1])!, longitude: Double(r[2])!,
                radiusMeters: Double(r[3])!)
        }
    }

    struct Query {
        var qid: Int
        var category: String
        var point: LatLng
        var hits: [Int32]
    }

    static func queries() throws -> [Query] {
        try rows("queries.csv").map { r in
            Query(
                qid: Int(r[0])!, category: String(r[1]),
                point: try LatLng(latitude: Double(r[2])!, longitude: Double(r[3])!),
                hits: r[5].split(separator: " ").map { Int32($0)! })
        }
    }
}
