import Geodesy
import JSON
import NumberFormatting

/// A polygon feature to write: an integer id, its parts (each a shell followed by its holes;
/// rings open, in degrees) and string properties.
public struct GeoJSONOutline: Hashable, Sendable {
    /// The feature's `id`.
    public var id: Int
    /// Parts: each is a shell ring followed by its hole rings, every ring open (the writer
    /// repeats the first position to close it).
    public var parts: [[[LatLng]]]
    /// Properties, written as strings in key order.
    public var properties: [String: String]

    /// A feature with these parts and properties.
    public init(id: Int, parts: [[[LatLng]]], properties: [String: String] = [:]) {
        self.id = id
        self.parts = parts
        self.properties = properties
    }
}

/// Writes polygon features as an RFC 7946 FeatureCollection, one feature per line: a Polygon for
/// one part, a MultiPolygon for several; positions `[lon, lat]` with 7 decimals (about 1 cm,
/// as the workload CSVs write degrees), rings closed. Rings are written in the order and
/// orientation given (RFC 7946 asks for counter-clockwise shells and clockwise holes;
/// ``GeoJSONReader`` accepts either). What ``GeoJSONReader`` reads back is the same polygon
/// whenever the input positions already carry at most 7 decimals.
public enum GeoJSONWriter {
    /// The text of a FeatureCollection of `features`. O(total positions).
    public static func featureCollection(_ features: [GeoJSONOutline]) -> [UInt8] {
        var out: [UInt8] = []
        out.append(contentsOf: Array("{\"type\":\"FeatureCollection\",\"features\":[".utf8))
        for (k, f) in features.enumerated() {
            out.append(contentsOf: Array((k == 0 ? "\n" : ",\n").utf8))
            append(f, to: &out)
        }
        out.append(contentsOf: Array("\n]}\n".utf8))
        return out
    }

    /// Appends one feature object.
    static func append(_ f: GeoJSONOutline, to out: inout [UInt8]) {
        out.append(contentsOf: Array("{\"type\":\"Feature\",\"id\":".utf8))
        DecimalFormatting.append(Int64(f.id), to: &out)
        out.append(contentsOf: Array(",\"properties\":{".utf8))
        for (k, key) in f.properties.keys.sorted().enumerated() {
            if k > 0 { out.append(UInt8(ascii: ",")) }
            appendString(key, to: &out)
            out.append(UInt8(ascii: ":"))
            appendString(f.properties[key]!, to: &out)
        }
        let multi = f.parts.count != 1
        out.append(contentsOf: Array("},\"geometry\":{\"type\":\"\(multi ? "MultiPolygon" : "Polygon")\",\"coordinates\":".utf8))
        if multi { out.append(UInt8(ascii: "[")) }
        for (p, part) in f.parts.enumerated() {
            if p > 0 { out.append(UInt8(ascii: ",")) }
            out.append(UInt8(ascii: "["))
            for (r, ring) in part.enumerated() {
                if r > 0 { out.append(UInt8(ascii: ",")) }
                out.append(UInt8(ascii: "["))
                for (v, position) in (ring + ring.prefix(1)).enumerated() {
                    if v > 0 { out.append(UInt8(ascii: ",")) }
                    out.append(UInt8(ascii: "["))
                    DecimalFormatting.append(position.longitude, decimals: 7, to: &out)
                    out.append(UInt8(ascii: ","))
                    DecimalFormatting.append(position.latitude, decimals: 7, to: &out)
                    out.append(UInt8(ascii: "]"))
                }
                out.append(UInt8(ascii: "]"))
            }
            out.append(UInt8(ascii: "]"))
        }
        if multi { out.append(UInt8(ascii: "]")) }
        out.append(contentsOf: Array("}}".utf8))
    }

    /// Appends `s` as a JSON string, escaped as ``JSONObject/string(_:)`` escapes it.
    static func appendString(_ s: String, to out: inout [UInt8]) {
        out.append(contentsOf: Array(JSONObject.string(s).utf8))
    }
}
