import JSON
import GeoCells
import Geodesy

/// Reads the Polygon and MultiPolygon features of a GeoJSON text (RFC 7946): a
/// `FeatureCollection` or a single `Feature`, one feature at a time (``next()``). Over a file
/// (``init(path:)``) it reads as it goes, so memory holds about one feature whatever the size of
/// the file; over bytes, the bytes and one feature.
///
/// Each feature needs an `id` (integer or string; it names the polygon in the tools' output)
/// and a `Polygon` or `MultiPolygon` geometry. Positions are `[longitude, latitude]` in
/// degrees (a third coordinate is ignored); rings must be closed (first position repeated at
/// the end) and have at least 4 positions. All rings of a feature become loops of one
/// `Polygon` (orientation is normalized, so clockwise shells are accepted).
///
/// Errors are ``GeoJSONError``s naming the feature index, the JSON path
/// (`$.features[3].geometry.coordinates[0][5]`) and line and column: malformed JSON, a missing
/// or wrong member, a position out of range, an open ring, and the polygon's own validation
/// (`PolygonError`: self-intersection, duplicate vertex, crossing rings), placed at the
/// offending vertex. `properties` must be an object or null and is kept
/// (``GeoJSONFeature/properties``); other members (`bbox`, foreign members) are skipped.
///
/// Implementation note: it pulls tokens from the JSON module's `JSONTokenizer` (the package's
/// one JSON reader) rather than building a tree, so a document of any size needs memory for one
/// feature; Foundation's `JSONSerialization` reports neither paths nor positions, and the
/// geometry layers do not import Foundation.
public struct GeoJSONReader {
    var tokenizer: JSONTokenizer
    /// Where the next feature comes from.
    enum State { case start, inFeatures, single, done }
    var state = State.start
    var nextIndex = 0
    /// Whether the top level was a FeatureCollection (checked when its "type" is read).
    var topType: String?
    /// Lines counted so far (absolute offsets), so that features, read in order, are located
    /// in linear time.
    var lineMark = LineMark()
    /// The file the window is read from (nil: the bytes given are the whole text).
    var source: FileSource?
    /// The absolute offset of the window's first byte, and the line there.
    var windowStart = 0
    var windowMark = LineMark()

    /// A reader over the bytes of a GeoJSON text.
    public init(bytes: [UInt8]) {
        tokenizer = JSONTokenizer(bytes)
    }

    func error(_ message: String, _ path: String, _ feature: Int?, at offset: Int) -> GeoJSONError {
        let (line, column) = lineColumn(offset)
        return GeoJSONError(message: message, path: path, featureIndex: feature, line: line, column: column)
    }

    func wrap(_ f: JSONTokenizer.Failure, _ path: String, _ feature: Int?) -> GeoJSONError {
        error(f.message, path, feature, at: f.offset)
    }

    /// 1-based line and column of `offset`, counting on from the last offset asked for
    /// (from the start when `offset` is before it).
    mutating func location(_ offset: Int) -> (line: Int, column: Int) {
        let absolute = windowStart + offset
        if absolute < lineMark.offset { lineMark = windowMark }
        var mark = lineMark
        let windowStart = windowStart
        tokenizer.bytes.withUnsafeBufferPointer { bytes in
            for i in (mark.offset - windowStart)..<min(offset, bytes.count) where bytes[i] == UInt8(ascii: "\n") {
                mark.line += 1
                mark.lineStart = windowStart + i + 1
            }
        }
        mark.offset = absolute
        lineMark = mark
        return (mark.line, absolute - mark.lineStart + 1)
    }

    /// All remaining features.
    public mutating func readAll() throws(GeoJSONError) -> [GeoJSONFeature] {
        var out: [GeoJSONFeature] = []
        while let f = try next() { out.append(f) }
        return out
    }

    /// The next feature, or nil after the last.
    public mutating func next() throws(GeoJSONError) -> GeoJSONFeature? {
        switch state {
        case .done:
            return nil
        case .single:
            state = .done
            return nil
        case .start:
            return try start()
        case .inFeatures:
            discardRead()
            try bufferNonBlank()
            if tokenizer.consume(",") {
                try bufferValue()
                return try feature(path: "$.features[\(nextIndex)]")
            }
            do throws(JSONTokenizer.Failure) { try tokenizer.expect("]") } catch { throw wrap(error, "$.features", nil) }
            try finishTop()
            return nil
        }
    }

    /// Reads the top-level object up to the first feature.
    mutating func start() throws(GeoJSONError) -> GeoJSONFeature? {
        try bufferNonBlank()
        let begin = tokenizer.position
        do throws(JSONTokenizer.Failure) {
            try tokenizer.expect("{")
        } catch {
            throw wrap(error, "$", nil)
        }
        // A single Feature: parse it whole from the beginning.
        // Look for "features" or "type" members first.
        try bufferNonBlank()
        if tokenizer.consume("}") { throw error("empty object: not GeoJSON", "$", nil, at: begin) }
        while true {
            let keyOffset = tokenizer.position
            let key = try topLevelKey()
            if key == "features" { try bufferNonBlank() } else { try bufferValue() }
            switch key {
            case "features":
                do throws(JSONTokenizer.Failure) { try tokenizer.expect("[") } catch { throw wrap(error, "$.features", nil) }
                try bufferNonBlank()
                if tokenizer.consume("]") {
                    try finishTop()
                    return nil
                }
                state = .inFeatures
                try bufferValue()
                return try feature(path: "$.features[0]")
            case "type":
                do throws(JSONTokenizer.Failure) { topType = try tokenizer.string() } catch { throw wrap(error, "$.type", nil) }
                if topType == "Feature" {
                    // Re-read the whole object as one feature.
                    tokenizer.position = begin
                    try bufferValue()
                    state = .single
                    nextIndex = 0
                    return try feature(path: "$")
                }
                if topType != "FeatureCollection" {
                    throw error("type must be FeatureCollection or Feature, found \(topType!)", "$.type", nil, at: keyOffset)
                }
            default:
                do throws(JSONTokenizer.Failure) { try tokenizer.skipValue() } catch { throw wrap(error, "$.\(key)", nil) }
            }
            try bufferNonBlank()
            if !tokenizer.consume(",") {
                throw error("no features member", "$", nil, at: tokenizer.position)
            }
        }
    }

    /// After the features array: the rest of the top-level object.
    mutating func finishTop() throws(GeoJSONError) {
        state = .done
        while try bufferNonBlankThenComma() {
            let offset = tokenizer.position
            let key = try topLevelKey()
            try bufferValue()
            do throws(JSONTokenizer.Failure) {
                if key == "type" {
                    let t = try tokenizer.string()
                    if t != "FeatureCollection" {
                        throw JSONTokenizer.Failure(message: "type must be FeatureCollection, found \(t)", offset: offset)
                    }
                    topType = t
                } else {
                    try tokenizer.skipValue()
                }
            } catch { throw wrap(error, "$", nil) }
        }
        try bufferNonBlank()
        do throws(JSONTokenizer.Failure) { try tokenizer.expect("}") } catch { throw wrap(error, "$", nil) }
        try bufferNonBlank()
        do throws(JSONTokenizer.Failure) {
            if tokenizer.peek() != nil { throw JSONTokenizer.Failure(message: "text after the end of the document", offset: tokenizer.position) }
        } catch { throw wrap(error, "$", nil) }
        if topType == nil {
            throw GeoJSONError(message: "missing \"type\": \"FeatureCollection\"", path: "$", featureIndex: nil, line: 1, column: 1)
        }
    }

    /// A member name of the top-level object and its colon.
    mutating func topLevelKey() throws(GeoJSONError) -> String {
        try bufferValue()
        let key: String
        do throws(JSONTokenizer.Failure) { key = try tokenizer.string() } catch { throw wrap(error, "$", nil) }
        try bufferNonBlank()
        do throws(JSONTokenizer.Failure) { try tokenizer.expect(":") } catch { throw wrap(error, "$", nil) }
        return key
    }

    /// Whether a comma comes next (consumed), after making sure the window holds it.
    mutating func bufferNonBlankThenComma() throws(GeoJSONError) -> Bool {
        try bufferNonBlank()
        return tokenizer.consume(",")
    }

    /// Nested coordinate arrays as read (numbers at the leaves), with each position's offset.
    indirect enum Coordinates {
        case position([Double], offset: Int)
        case array([Coordinates], offset: Int)
    }

    mutating func coordinates(_ path: String, _ feature: Int, depth: Int) throws(GeoJSONError) -> Coordinates {
        let offset = tokenizer.position
        do throws(JSONTokenizer.Failure) {
            try tokenizer.expect("[")
        } catch { throw wrap(error, path, feature) }
        if depth > 4 { throw error("coordinates nested too deeply", path, feature, at: offset) }
        if tokenizer.peek() == UInt8(ascii: "[") {
            var items: [Coordinates] = []
            repeat {
                items.append(try coordinates(path + "[\(items.count)]", feature, depth: depth + 1))
            } while tokenizer.consume(",")
            do throws(JSONTokenizer.Failure) { try tokenizer.expect("]") } catch { throw wrap(error, path, feature) }
            return .array(items, offset: offset)
        }
        var numbers: [Double] = []
        if tokenizer.consume("]") { return .array([], offset: offset) }
        do throws(JSONTokenizer.Failure) {
            repeat { numbers.append(try tokenizer.number().value) } while tokenizer.consume(",")
            try tokenizer.expect("]")
        } catch { throw wrap(error, path, feature) }
        return .position(numbers, offset: offset)
    }

    /// A geometry object: its type and coordinates (either may be missing).
    mutating func geometry(_ path: String, _ index: Int) throws(GeoJSONError) -> (String?, Coordinates?) {
        var type: String?, coords: Coordinates?
        do throws(JSONTokenizer.Failure) { try tokenizer.expect("{") } catch { throw wrap(error, path, index) }
        if tokenizer.consume("}") { return (nil, nil) }
        repeat {
            let key: String
            do throws(JSONTokenizer.Failure) {
                key = try tokenizer.string()
                try tokenizer.expect(":")
            } catch { throw wrap(error, path, index) }
            if key == "coordinates" {
                coords = try coordinates(path + ".coordinates", index, depth: 0)
                continue
            }
            do throws(JSONTokenizer.Failure) {
                if key == "type" { type = try tokenizer.string() } else { try tokenizer.skipValue() }
            } catch { throw wrap(error, path + "." + key, index) }
        } while tokenizer.consume(",")
        do throws(JSONTokenizer.Failure) { try tokenizer.expect("}") } catch { throw wrap(error, path, index) }
        return (type, coords)
    }

    /// One feature object at `path`.
    mutating func feature(path: String) throws(GeoJSONError) -> GeoJSONFeature {
        let index = nextIndex
        nextIndex += 1
        let begin = tokenizer.position
        var type: String?, id: GeoJSONFeatureID?
        var geometryType: String?, geometryOffset = begin
        var coords: Coordinates?
        var properties = JSONValue.null
        do throws(JSONTokenizer.Failure) {
            try tokenizer.expect("{")
        } catch { throw wrap(error, path, index) }
        let (line, column) = location(tokenizer.position - 1)
        if !tokenizer.consume("}") {
            repeat {
                let key: String
                do throws(JSONTokenizer.Failure) {
                    key = try tokenizer.string()
                    try tokenizer.expect(":")
                } catch { throw wrap(error, path, index) }
                let valueOffset = tokenizer.position
                if key == "geometry" {
                    geometryOffset = valueOffset
                    (geometryType, coords) = try geometry(path + ".geometry", index)
                    continue
                }
                do throws(JSONTokenizer.Failure) {
                    switch key {
                    case "type": type = try tokenizer.string()
                    case "id":
                        if tokenizer.peek() == UInt8(ascii: "\"") {
                            id = .string(try tokenizer.string())
                        } else {
                            let text = try tokenizer.number().text
                            guard let n = Int(text) else {
                                throw JSONTokenizer.Failure(message: "id must be an integer or a string, found \(text)", offset: valueOffset)
                            }
                            id = .integer(n)
                        }
                    case "properties":
                        properties = try JSONValue.read(from: &tokenizer)
                        switch properties {
                        case .object, .null: break
                        default:
                            throw JSONTokenizer.Failure(
                                message: "properties must be an object or null, found \(properties.kind)", offset: valueOffset)
                        }
                    default: try tokenizer.skipValue()
                    }
                } catch {
                    throw wrap(error, path + "." + key, index)
                }
            } while tokenizer.consume(",")
        }
        do throws(JSONTokenizer.Failure) { try tokenizer.expect("}") } catch { throw wrap(error, path, index) }
        guard type == "Feature" else {
            throw error(type.map { "type must be Feature, found \($0)" } ?? "missing \"type\": \"Feature\"", path + ".type", index, at: begin)
        }
        guard let id else { throw error("missing id (an integer or a string)", path + ".id", index, at: begin) }
        guard let geometryType else { throw error("missing geometry type", path + ".geometry.type", index, at: geometryOffset) }
        guard let coords else { throw error("missing coordinates", path + ".geometry.coordinates", index, at: geometryOffset) }
        let cpath = path + ".geometry.coordinates"
        // Polygons as lists of rings, with the JSON path prefix of each ring.
        var polygonsRings: [(Coordinates, String)] = []
        switch geometryType {
        case "Polygon":
            polygonsRings = [(coords, cpath)]
        case "MultiPolygon":
            guard case .array(let parts, _) = coords else {
                throw error("MultiPolygon coordinates must be an array of polygons", cpath, index, at: geometryOffset)
            }
            polygonsRings = parts.enumerated().map { ($1, cpath + "[\($0)]") }
        default:
            throw error("geometry type must be Polygon or MultiPolygon, found \(geometryType)", path + ".geometry.type", index, at: geometryOffset)
        }
        var rings: [[LatLng]] = []
        var ringPaths: [String] = []
        var ringOffsets: [[Int]] = []
        for (poly, ppath) in polygonsRings {
            guard case .array(let ringList, let off) = poly, !ringList.isEmpty else {
                throw error("a polygon must be a non-empty array of rings", ppath, index, at: geometryOffset)
            }
            _ = off
            for (r, ring) in ringList.enumerated() {
                let rpath = ppath + "[\(r)]"
                guard case .array(let positions, let roff) = ring else {
                    throw error("a ring must be an array of positions", rpath, index, at: geometryOffset)
                }
                var points: [LatLng] = []
                var offsets: [Int] = []
                var raw: [[Double]] = []
                for (k, pos) in positions.enumerated() {
                    guard case .position(let xy, let poff) = pos, xy.count >= 2 else {
                        throw error("a position must be [longitude, latitude]", rpath + "[\(k)]", index, at: roff)
                    }
                    guard (-180...180).contains(xy[0]) else {
                        // RFC 7946 positions are WGS 84 degrees; a ring crossing the antimeridian
                        // is written with longitudes that jump from 180 to -180 (or cut in two).
                        var hint = ""
                        if xy[0].isFinite && abs(xy[0]) < 540 {
                            let wrapped = xy[0] > 0 ? xy[0] - 360 : xy[0] + 360
                            hint =
                                " (write it as \(wrapped): edges are the shortest arcs, so a ring may cross the antimeridian with longitudes jumping between 180 and -180)"
                        }
                        throw error("longitude \(xy[0]) outside [-180, 180]\(hint)", rpath + "[\(k)][0]", index, at: poff)
                    }
                    guard (-90...90).contains(xy[1]) else { throw error("latitude \(xy[1]) outside [-90, 90]", rpath + "[\(k)][1]", index, at: poff) }
                    raw.append(xy)
                    points.append(LatLng(uncheckedLatitude: xy[1], longitude: xy[0]))
                    offsets.append(poff)
                }
                guard points.count >= 4 else { throw error("a ring needs at least 4 positions, found \(points.count)", rpath, index, at: roff) }
                guard raw.first![0] == raw.last![0] && raw.first![1] == raw.last![1] else {
                    throw error(
                        "ring is not closed (its last position must repeat the first)", rpath + "[\(points.count - 1)]", index, at: offsets.last!)
                }
                points.removeLast()
                rings.append(points)
                ringPaths.append(rpath)
                ringOffsets.append(offsets)
            }
        }
        do {
            let polygon = try Polygon(latLngRings: rings)
            return GeoJSONFeature(
                index: index, id: id, polygon: polygon, properties: properties, path: path, line: line, column: column)
        } catch {
            let (ring, vertex): (Int, Int)
            switch error {
            case .tooFewVertices(let r, _): (ring, vertex) = (r, 0)
            case .duplicateVertex(let r, let v, _): (ring, vertex) = (r, v)
            case .antipodalEdge(let r, let v): (ring, vertex) = (r, v)
            case .selfIntersection(let r, let e, _): (ring, vertex) = (r, e)
            case .ringsCross(let r, let e, _, _): (ring, vertex) = (r, e)
            case .ringsShareEdge(let r, let e, _, _): (ring, vertex) = (r, e)
            case .ringsCrossAtVertex(let r, let v, _, _): (ring, vertex) = (r, v)
            case .noRings: (ring, vertex) = (0, 0)
            }
            let p = ringPaths.isEmpty ? cpath : ringPaths[ring] + "[\(vertex)]"
            let offset = ringOffsets.isEmpty ? geometryOffset : ringOffsets[ring][vertex]
            throw self.error("invalid polygon: \(error.description)", p, index, at: offset)
        }
    }
}
