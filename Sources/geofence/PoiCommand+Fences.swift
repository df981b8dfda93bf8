import CommandSupport
import FastCSV
import Geofencing
import POIData

extension PoiCommand {
    /// `poi fences`: the task "near a C" through Geofencing's task model, as fences.csv.
    /// Returns a failure status when there is nothing to fence, else nil.
    func writeFences(_ catalog: POICatalog, _ io: ToolIO) -> Int32? {
        let index = POIIndex(catalog)
        let task = POICategoryTask(
            id: "poi-\(category!.rawValue)", category: category!, near: [location!], k: limit,
            maxDistanceMeters: maxMeters, in: index)
        let fences: [POICategoryTask.TieredFence]
        do {
            fences = try task.fences(firstID: 0)
        } catch {
            io.report("geofence poi: \(sourceName): no \(category!.rawValue) POI found within the limits (\(error.description))")
            io.flush()
            return ExitStatus.failure
        }
        let out = io.output
        out.writeRecord(["id", "lat", "lon", "radius_m", "poi_id", "tier"])
        for f in fences {
            out.writeField(Int64(f.fence.id))
            out.writeField(f.fence.place.latitude)
            out.writeField(f.fence.place.longitude)
            out.writeField(f.fence.radiusMeters)
            out.writeField(Int64(f.poi))
            out.writeField(Int64(f.tier))
            out.endRecord()
        }
        return nil
    }
}
