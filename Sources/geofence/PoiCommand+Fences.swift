import CommandSupport
import FastCSV
import GeoJSON
import Geofencing
import POIData

extension PoiCommand {
    /// `poi fences`: the task "near a C" through Geofencing's task model, as fences.csv; with
    /// `outlines` (`--areas`), outline fences too, and a last column `outline` naming each
    /// outline fence's feature id. Returns a failure status when there is nothing to fence, else nil.
    func writeFences(_ catalog: POICatalog, outlines: POIOutlines?, _ io: ToolIO) -> Int32? {
        let index = POIIndex(catalog)
        let task = POICategoryTask(
            id: "poi-\(category!.rawValue)", category: category!, near: [location!], k: limit,
            maxDistanceMeters: maxMeters, in: index)
        let fences: [POICategoryTask.TieredFence]
        let shapes: FenceOutlines
        do {
            (fences, shapes) = try task.fences(firstID: 0, outlines: outlines ?? POIOutlines())
        } catch {
            let reason = task.matches.isEmpty ? "no \(category!.rawValue) POI found within the limits" : "cannot fence them"
            io.report("geofence poi: \(sourceName): \(reason) (\(error.description))")
            io.flush()
            return ExitStatus.failure
        }
        if let polygonsOutPath {
            let placeOfFence = Dictionary(uniqueKeysWithValues: fences.map { ($0.fence.id, $0.fence.place.id) })
            let features = zip(shapes.ids, shapes.polygons).map { id, polygon in
                GeoJSONOutline(id: Int(id), polygon: polygon, properties: ["place": placeOfFence[id] ?? ""])
            }
            do {
                try TextFile.write(String(decoding: GeoJSONWriter.featureCollection(features), as: UTF8.self), to: polygonsOutPath)
            } catch {
                io.report("geofence poi: cannot write \(error.description)")
                io.flush()
                return ExitStatus.failure
            }
        }
        let out = io.output
        out.writeRecord(["id", "lat", "lon", "radius_m", "poi_id", "tier"] + (outlines == nil ? [] : ["outline"]))
        for f in fences {
            out.writeField(Int64(f.fence.id))
            out.writeField(f.fence.place.latitude)
            out.writeField(f.fence.place.longitude)
            out.writeField(f.fence.radiusMeters)
            out.writeField(Int64(f.poi))
            out.writeField(Int64(f.tier))
            if outlines != nil { out.writeField(f.isOutline ? String(catalog.row(at: f.poi)) : "") }
            out.endRecord()
        }
        return nil
    }
}
