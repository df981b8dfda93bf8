import GeoCells
import GeoJSON
import JSON

/// The outlines of a catalog's POIs: the GeoJSON file `scripts/osm-pois --areas` writes beside
/// the POI CSV, matched to the POIs loaded from that CSV.
///
/// Each feature's `id` is the 0-based position of its POI's row among the CSV's data records
/// (``POICatalog/row(at:)``; the header is not a record). Its `properties` say which object it
/// outlines, and must agree with that row: `osm_type` and `osm_id` are required when the row
/// has them and must equal them; `category`, when present, must be the row's category (`""`
/// for none). A mismatch means the two files were not written together, and is an error.
/// A feature whose row was not loaded (skipped as invalid under `skipInvalid`, or dropped as a
/// repeated `(osm_type, osm_id)`) is not an error: its outline is left out and listed in
/// ``unused``, so that nothing is dropped unseen.
///
/// Invariant: at most one outline per POI.
public struct POIOutlines: Sendable {
    /// The outline of each POI that has one, by POI index.
    let outlineOfPOI: [Int: Polygon]
    /// Features left out because their row was not loaded, one message each in the form of the
    /// reader's errors (naming the feature, its `id` path, line and column), in file order.
    public let unused: [GeoJSONError]

    /// No outlines.
    public init() {
        outlineOfPOI = [:]
        unused = []
    }

    /// Reads the GeoJSON file at `path` (``GeoJSONReader``) and matches its features to
    /// `catalog`, as ``init(features:catalog:)``.
    /// - Throws: ``GeoJSONError``: the reader's error (file, JSON, geometry), or the first
    ///   feature that does not match its row.
    public init(path: String, catalog: POICatalog) throws(GeoJSONError) {
        var reader = try GeoJSONReader(path: path)
        try self.init(features: reader.readAll(), catalog: catalog)
    }

    /// Matches `features` to the rows of `catalog`.
    /// - Throws: ``GeoJSONError`` naming the first feature whose id is not an integer, names
    ///   no data record of the file, repeats an earlier feature's id, or whose `properties`
    ///   disagree with the row (`osm_type`, `osm_id`, `category`), with the JSON path of the
    ///   offending member. O(features × log POIs).
    public init(features: [GeoJSONFeature], catalog: POICatalog) throws(GeoJSONError) {
        var outlines: [Int: Polygon] = [:]
        var featureOfRow: [Int: Int] = [:]
        var unused: [GeoJSONError] = []
        let records = catalog.report.rowsRead
        for f in features {
            func fail(_ member: String, _ message: String) -> GeoJSONError {
                GeoJSONError(message: message, path: f.path + member, featureIndex: f.index, line: f.line, column: f.column)
            }
            guard case .integer(let row) = f.id else {
                throw fail(".id", "id \"\(f.id)\" is not a row position (an outline's id is its POI's 0-based row in the POI file)")
            }
            guard (0..<records).contains(row) else {
                let rows = records == 0 ? "no data rows" : "\(records) data rows (ids 0...\(records - 1))"
                throw fail(".id", "id \(row) names no row: the POI file has \(rows)")
            }
            if let earlier = featureOfRow.updateValue(f.index, forKey: row) {
                throw fail(".id", "id \(row) repeats feature \(earlier)'s: a row has at most one outline")
            }
            guard let poi = catalog.index(ofRow: row) else {
                unused.append(
                    fail(".id", "row \(row) was not loaded (skipped as invalid, or a repeated osm_type/osm_id), so this outline is not used"))
                continue
            }
            let what = "row \(row) (line \(catalog.line(at: poi)))"
            if let type = catalog.osmType(at: poi) {
                guard case .string(let found)? = f.properties["osm_type"] else {
                    throw fail(".properties.osm_type", "expected the osm_type of \(what), \(type), found \(Self.shown(f.properties["osm_type"]))")
                }
                guard found == type.rawValue else {
                    throw fail(".properties.osm_type", "osm_type is \(found) but \(what) is a \(type): the files were not written together")
                }
            }
            if let id = catalog.osmID(at: poi) {
                guard case .number(let value, integral: true)? = f.properties["osm_id"], let found = Int64(exactly: value) else {
                    throw fail(".properties.osm_id", "expected the osm_id of \(what), \(id), found \(Self.shown(f.properties["osm_id"]))")
                }
                guard found == id else {
                    throw fail(".properties.osm_id", "osm_id is \(found) but \(what) has \(id): the files were not written together")
                }
            }
            if let value = f.properties["category"], value != .null {
                let expected = catalog.category(at: poi)?.rawValue ?? ""
                guard case .string(let found) = value else {
                    throw fail(".properties.category", "expected a string (the category of \(what), \"\(expected)\"), found \(value.kind)")
                }
                guard found == expected else {
                    throw fail(
                        ".properties.category", "category is \"\(found)\" but \(what) has \"\(expected)\": the files were not written together")
                }
            }
            outlines[poi] = f.polygon
        }
        outlineOfPOI = outlines
        self.unused = unused
    }

    /// Number of outlines matched to a POI.
    public var count: Int { outlineOfPOI.count }

    /// The POIs that have an outline (their indexes in the catalog), ascending.
    public var pois: [Int] { outlineOfPOI.keys.sorted() }

    /// The outline of POI `i` (its index in the catalog), or nil.
    public func outline(ofPOI i: Int) -> Polygon? { outlineOfPOI[i] }

    /// A property value as shown in a message.
    static func shown(_ value: JSONValue?) -> String {
        switch value {
        case nil: return "none"
        case .string(let s)?: return "\"\(s)\""
        case .number(let n, let integral)?: return integral && abs(n) < 1e15 ? String(Int64(n)) : "\(n)"
        case let other?: return other.kind
        }
    }
}
