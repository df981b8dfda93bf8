// libFuzzer harness of the GeoJSON module (compiled into module GeoJSON by scripts/fuzz-libs).
// Any bytes: read over the bytes and over a file in chunks of 1 to 64 bytes (the window reader),
// which must give the same features or the same error; each feature read is written back as an
// outline, read again, and must give the same loops.
import GeoCells
import Geodesy
import JSON

#if canImport(Glibc)
import Glibc
#endif

func describe(_ reader: inout GeoJSONReader) -> (features: [String], polygons: [Polygon], error: GeoJSONError?) {
    var features: [String] = [], polygons: [Polygon] = []
    do {
        while let f = try reader.next() {
            features.append("\(f.index) \(f.id) \(f.path) \(f.line):\(f.column) \(f.polygon.loopCount) \(f.polygon.vertices.count) \(f.properties)")
            polygons.append(f.polygon)
            check(features.count < 100_000, "too many features")
        }
    } catch {
        check(error.line >= 0 && error.column >= 0, "negative place: \(error)")
        return (features, polygons, error)
    }
    return (features, polygons, nil)
}

let scratchPath = "/tmp/fuzz-geojson-\(getpid()).json"

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size >= 1 else { return 0 }
    let chunk = Int(data[0] & 63) + 1
    let bytes = Array(UnsafeBufferPointer(start: data + 1, count: size - 1))
    var whole = GeoJSONReader(bytes: bytes)
    let expected = describe(&whole)
    let fd = open(scratchPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    check(fd >= 0, "cannot write the scratch file")
    _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
    close(fd)
    var windowed = try! GeoJSONReader(path: scratchPath, chunkSize: chunk)
    let got = describe(&windowed)
    check(got.features == expected.features, "chunk \(chunk): features \(got.features) against \(expected.features)")
    check(got.error == expected.error, "chunk \(chunk): error \(String(describing: got.error)) against \(String(describing: expected.error))")
    // Each polygon read: written as an outline and read back, the same loops.
    for (i, polygon) in expected.polygons.enumerated() {
        _ = polygon.contains(UnitVector(LatLng(uncheckedLatitude: 0, longitude: 0)))
        let outline = GeoJSONOutline(id: i, polygon: polygon)
        let text = GeoJSONWriter.featureCollection([outline])
        var again = GeoJSONReader(bytes: text)
        do {
            let back = try again.readAll()
            check(back.count == 1, "outline read back as \(back.count) features")
            check(back[0].polygon.loopCount == polygon.loopCount, "outline read back with \(back[0].polygon.loopCount) loops, not \(polygon.loopCount)")
        } catch {
            check(false, "outline of an accepted polygon refused: \(error); \(String(decoding: text, as: UTF8.self))")
        }
    }
    return 0
}
