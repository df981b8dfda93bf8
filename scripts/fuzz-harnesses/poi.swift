// libFuzzer harness of POIData's loader (compiled into module POIData by scripts/fuzz-libs).
// Any bytes as a POI CSV, under each option: a catalog or a POIError; every POI of a catalog
// read back (fields, tags, place), indexed and queried.
import FastCSV
import Geodesy
import GeoCells

#if canImport(Glibc)
import Glibc
#endif

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size >= 1 else { return 0 }
    let chunk = Int(data[0] & 63) + 1
    let bytes = Array(UnsafeBufferPointer(start: data + 1, count: size - 1))
    for (skip, keep) in [(false, false), (true, false), (true, true)] {
        let options = POILoadOptions(skipInvalid: skip, keepDuplicates: keep)
        let catalog: POICatalog
        do {
            catalog = try POICatalog(reader: CSVReader(bytes: bytes, chunkSize: chunk), options: options)
        } catch {
            check(error.line >= 0 && error.column >= 0, "negative place \(error)")
            _ = error.description
            continue
        }
        for i in 0..<catalog.count {
            let l = catalog.location(at: i)
            check(l.latitude.isFinite && abs(l.latitude) <= 90 && l.longitude.isFinite && abs(l.longitude) <= 180, "POI \(i) at \(l)")
            _ = catalog[i]; _ = catalog.tags(at: i); _ = catalog.name(at: i); _ = catalog.placeID(at: i); _ = catalog.place(at: i)
            _ = catalog.category(at: i); _ = catalog.osmType(at: i); _ = catalog.osmID(at: i)
            check(catalog.index(ofRow: catalog.row(at: i)) == i, "row of POI \(i)")
        }
        _ = catalog.countsByCategory; _ = catalog.boundingBox
        if catalog.count > 0 {
            let index = POIIndex(catalog)
            let matches = index.nearest(nil, to: catalog.location(at: 0), k: 3)
            check(!matches.isEmpty, "the nearest POI to a POI is not found")
            _ = index.nearest(nil, toAnyOf: [catalog.location(at: catalog.count - 1)], k: 2, maxDistanceMeters: 1000)
        }
    }
    return 0
}
