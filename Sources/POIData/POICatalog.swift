import FastCSV
import Geodesy

/// A loaded set of points of interest, stored column-wise.
///
/// Representation (struct of arrays, one entry per POI, in file order of the rows loaded):
/// `locations` (degrees), category / OSM type codes (one byte each, 255 = none), OSM ids
/// (-1 = none), source lines, row positions, and every text field (the name, then one value per tag column)
/// packed into one UTF-8 byte array, `textEnds[i * slots + s]` being the end of slot `s` of
/// POI `i` (its start is the previous end). A million POIs therefore cost a handful of arrays,
/// not a million dictionaries; ``subscript(_:)`` builds a ``POI`` value on demand.
///
/// Invariants: every location satisfies `LatLng`'s invariants; text is valid UTF-8;
/// `textEnds.count == count * (1 + tagNames.count) + 1`; row positions strictly increase.
public struct POICatalog: Sendable {
    /// Positions, degrees.
    public internal(set) var locations: [LatLng] = []
    @usableFromInline var categoryCodes: [UInt8] = []
    @usableFromInline var osmTypeCodes: [UInt8] = []
    @usableFromInline var osmIDs: [Int64] = []
    @usableFromInline var lines: [Int] = []
    @usableFromInline var rows: [Int] = []
    @usableFromInline var text: [UInt8] = []
    @usableFromInline var textEnds: [Int] = [0]
    /// Names of the raw tag columns kept per POI, in header order.
    public internal(set) var tagNames: [String] = []
    /// Rows read, skipped, duplicated.
    public internal(set) var report = POILoadReport()

    /// "No category / no OSM type" in the one-byte code arrays.
    @usableFromInline static let noCode: UInt8 = 255

    init(tagNames: [String]) {
        self.tagNames = tagNames
    }

    /// Number of POIs.
    @inlinable public var count: Int { locations.count }

    @inlinable var slots: Int { 1 + tagNames.count }

    /// Position of POI `i`.
    @inlinable public func location(at i: Int) -> LatLng { locations[i] }

    /// Category of POI `i`: the explicit `category` column, else the tag mapping, else `nil`.
    @inlinable
    public func category(at i: Int) -> POICategory? {
        let code = categoryCodes[i]
        return code == Self.noCode ? nil : POICategory.allCases[Int(code)]
    }

    /// OSM type of POI `i`, `nil` when the file has no type column.
    @inlinable
    public func osmType(at i: Int) -> OSMElementType? {
        let code = osmTypeCodes[i]
        return code == Self.noCode ? nil : OSMElementType.allCases[Int(code)]
    }

    /// OSM id of POI `i`, `nil` when the file has no id column.
    @inlinable
    public func osmID(at i: Int) -> Int64? {
        let id = osmIDs[i]
        return id < 0 ? nil : id
    }

    /// 1-based physical line where POI `i`'s row starts.
    @inlinable public func line(at i: Int) -> Int { lines[i] }

    /// 0-based position of POI `i`'s record among the file's data records (the header
    /// excluded), counting rows that were skipped or dropped as repeats: the id
    /// `scripts/osm-pois --areas` gives the POI's outline. Equal to `i` when every row loaded.
    @inlinable public func row(at i: Int) -> Int { rows[i] }

    /// The POI loaded from data record `row` (0-based, as ``row(at:)``), or nil when that
    /// record was skipped, dropped as a repeat, or is past the end. O(log count).
    public func index(ofRow row: Int) -> Int? {
        var lo = 0, hi = rows.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if rows[mid] < row { lo = mid + 1 } else { hi = mid }
        }
        return lo < rows.count && rows[lo] == row ? lo : nil
    }

    /// Name of POI `i` (empty when the row had none).
    public func name(at i: Int) -> String { slotText(i, 0) }

    /// Value of tag column `key` for POI `i`; `nil` if the column was not kept or the value is empty.
    public func tag(_ key: String, at i: Int) -> String? {
        guard let k = tagNames.firstIndex(of: key) else { return nil }
        let value = slotText(i, 1 + k)
        return value.isEmpty ? nil : value
    }

    /// Non-empty tag values of POI `i`.
    public func tags(at i: Int) -> [String: String] {
        var out: [String: String] = [:]
        for (k, key) in tagNames.enumerated() {
            let value = slotText(i, 1 + k)
            if !value.isEmpty { out[key] = value }
        }
        return out
    }

    func slotText(_ i: Int, _ slot: Int) -> String {
        let j = i * slots + slot
        let start = textEnds[j], end = textEnds[j + 1]
        return text.withUnsafeBufferPointer { String(decoding: UnsafeBufferPointer(rebasing: $0[start..<end]), as: UTF8.self) }
    }

    /// POI `i` as a value.
    public subscript(i: Int) -> POI {
        POI(
            index: i, location: locations[i], name: name(at: i), category: category(at: i), osmType: osmType(at: i),
            osmID: osmID(at: i), tags: tags(at: i), line: lines[i])
    }

    /// Indexes of the POIs of `category` (`nil`: every POI), ascending.
    public func indexes(of category: POICategory?) -> [Int] {
        guard let category else { return Array(0..<count) }
        let code = UInt8(category.ordinal)
        return categoryCodes.indices.filter { categoryCodes[$0] == code }
    }

    /// Number of POIs per category; POIs without one are not counted.
    public var countsByCategory: [POICategory: Int] {
        var counts = Array(repeating: 0, count: POICategory.allCases.count)
        for code in categoryCodes where code != Self.noCode { counts[Int(code)] += 1 }
        var out: [POICategory: Int] = [:]
        for c in POICategory.allCases where counts[c.ordinal] > 0 { out[c] = counts[c.ordinal] }
        return out
    }

    /// Number of POIs without a category.
    public var uncategorizedCount: Int { categoryCodes.lazy.filter { $0 == Self.noCode }.count }

    /// The smallest latitude/longitude rectangle holding every POI; it crosses the antimeridian
    /// (`west > east`) when that is narrower (see `LatLngBox/bounding(_:)`);
    /// `LatLngBox/empty` when there are no POIs.
    public var boundingBox: LatLngBox { LatLngBox.bounding(locations) }
}
