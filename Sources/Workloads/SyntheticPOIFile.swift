#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import FastCSV
import Geodesy

/// A seeded synthetic OpenStreetMap-style POI CSV (the format of Data/README.md:
/// `osm_type,osm_id,lat,lon,name,amenity,shop,brand,category`), for loading and search
/// benchmarks at sizes the real extract doesn't reach.
///
/// Without a template: 50 city clusters in the contiguous US (gaussian, 15 km) plus a 10 %
/// uniform sprinkle over 25-49° N, 124-67° W, with tags in roughly the shares of the real
/// extract (every task category common enough to have thousands of POIs). With a template (the
/// rows of a real extract): copies of it, each shifted to a seeded random place away from the
/// poles (latitude clamped to ±80°), with 30 m of gaussian jitter per row. Positions have 7
/// decimals; ids are 1, 2, 3, ... Deterministic for a seed.
public enum SyntheticPOIFile {
    /// One source row: position (degrees), name, raw tags, explicit category ("" when absent).
    public struct Row: Hashable, Sendable {
        /// Position, degrees.
        public var location: LatLng
        /// The POI's name.
        public var name: String
        /// OSM `amenity` tag.
        public var amenity: String
        /// OSM `shop` tag.
        public var shop: String
        /// OSM `brand` tag.
        public var brand: String
        /// Explicit category (a `POICategory` raw value), or "".
        public var category: String

        /// A row with these fields.
        public init(location: LatLng, name: String, amenity: String, shop: String, brand: String, category: String) {
            self.location = location
            self.name = name
            self.amenity = amenity
            self.shop = shop
            self.brand = brand
            self.category = category
        }
    }

    /// Writes a header and `count` rows to `path` (created or truncated), from `template` or,
    /// when it is empty, from the synthetic world; returns the file size in bytes. O(count).
    /// - Throws: ``WorkloadIOError`` when the file can't be opened or written.
    public static func write(rows count: Int, template: [Row], seed: UInt64, to path: String) throws(WorkloadIOError) -> Int {
        var rng = SplitMix64(seed: seed)
        // Synthetic tag mix (amenity, shop, category), roughly the shares of the real extract
        // with task categories made commoner so that every category has thousands of POIs.
        let kinds: [(String, String, String)] = [
            ("restaurant", "", ""), ("cafe", "", ""), ("", "clothes", ""), ("", "hairdresser", ""),
            ("fuel", "", "fuel"), ("pharmacy", "", "pharmacy"), ("", "supermarket", "grocery"),
            ("", "convenience", "grocery"), ("bank", "", "bank"), ("atm", "", "atm"), ("post_office", "", "post_office")
        ]
        var centers: [LatLng] = []
        for _ in 0..<50 {  // 50 clusters: about the number of large US metros
            centers.append(LatLng(uncheckedLatitude: rng.uniform(25, 49), longitude: rng.uniform(-124, -67)))
        }
        let out: CSVWriter
        do { out = try CSVWriter(path: path) } catch { throw .cannotOpen(path: path, reason: error.message) }
        out.writeRecord(["osm_type", "osm_id", "lat", "lon", "name", "amenity", "shop", "brand", "category"])
        var shift = (lat: 0.0, lon: 0.0)
        for j in 0..<count {
            var row: Row
            if template.isEmpty {
                let kind = kinds[Int(rng.next() % UInt64(kinds.count))]
                let location: LatLng
                if rng.nextUnit() < 0.1 {  // the uniform sprinkle
                    location = LatLng(uncheckedLatitude: rng.uniform(25, 49), longitude: rng.uniform(-124, -67))
                } else {  // a cluster: gaussian, 15 km
                    let c = centers[Int(rng.next() % UInt64(centers.count))]
                    location = shifted(c, northMeters: 15_000 * rng.gaussian(), eastMeters: 15_000 * rng.gaussian())
                }
                row = Row(location: location, name: "POI \(j)", amenity: kind.0, shop: kind.1, brand: "", category: kind.2)
            } else {
                let i = j % template.count
                if i == 0 {  // a new copy of the extract: a random place on Earth away from the poles
                    shift = (rng.uniform(-100, 10), rng.uniform(-180, 180))
                }
                row = template[i]
                let moved = LatLng(
                    uncheckedLatitude: min(80, max(-80, row.location.latitude + shift.lat)),
                    longitude: LatLng.wrapLongitude(row.location.longitude + shift.lon))
                row.location = shifted(moved, northMeters: 30 * rng.gaussian(), eastMeters: 30 * rng.gaussian())
            }
            out.writeField("node")
            out.writeField(Int64(j + 1))
            out.writeField(row.location.latitude, decimals: 7)
            out.writeField(row.location.longitude, decimals: 7)
            for field in [row.name, row.amenity, row.shop, row.brand, row.category] { out.writeField(field) }
            out.endRecord()
        }
        out.flush()
        let total = out.bytesWritten
        do { try out.close() } catch { throw .writeFailed(path: path, reason: error.message) }
        return total
    }

    /// `count` query points near POIs, as a user usually is: each a seeded random POI (of
    /// `poiCount`, looked up by `location`) moved by gaussian offsets of 2 km north and east.
    /// Empty when `poiCount` is 0.
    public static func queryPoints(
        _ count: Int, nearPOIs poiCount: Int, seed: UInt64,
        location: (Int) -> LatLng
    ) -> [LatLng] {
        guard poiCount > 0 else { return [] }
        var rng = SplitMix64(seed: seed &+ 0x9E37)
        var points: [LatLng] = []
        points.reserveCapacity(count)
        for _ in 0..<count {
            let base = location(Int(rng.next() % UInt64(poiCount)))
            points.append(shifted(base, northMeters: 2_000 * rng.gaussian(), eastMeters: 2_000 * rng.gaussian()))
        }
        return points
    }

    /// `p` moved by small offsets in meters (equirectangular, fine below ~100 km), latitude
    /// clamped to ±89.9° and longitude wrapped into [-180, 180].
    public static func shifted(_ p: LatLng, northMeters: Double, eastMeters: Double) -> LatLng {
        let dLat = degrees(radians: northMeters / Earth.meanRadius)
        let dLon = degrees(radians: eastMeters / (Earth.meanRadius * max(0.01, cos(p.latitudeRadians))))
        let lat = min(89.9, max(-89.9, p.latitude + dLat))
        return LatLng(uncheckedLatitude: lat, longitude: LatLng.wrapLongitude(p.longitude + dLon))
    }
}
