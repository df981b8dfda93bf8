import JSON
import FastCSV
import POIData
import CommandSupport

extension PoiCommand {
    /// `poi nearest`: the K nearest POIs of the category, as CSV or JSON.
    func writeNearest(_ catalog: POICatalog, _ io: ToolIO) {
        let index = POIIndex(catalog)
        let matches = index.nearest(category, to: location!, k: limit, maxDistanceMeters: maxMeters)
        if json {
            let results = matches.enumerated().map { rank, m in
                let i = m.poi
                var o = JSONObject()
                o.set("rank", rank + 1)
                o.set("distance_m", Self.roundedToDecimeter(m.distanceMeters), decimals: nil)
                o.set("poi_id", i)
                if let type = catalog.osmType(at: i) { o.set("osm_type", type.rawValue) } else { o.setNull("osm_type") }
                if let id = catalog.osmID(at: i) { o.set("osm_id", Int(id)) } else { o.setNull("osm_id") }
                o.set("name", catalog.name(at: i))
                if let c = catalog.category(at: i) { o.set("category", c.rawValue) } else { o.setNull("category") }
                o.set("lat", catalog.location(at: i).latitude, decimals: nil)
                o.set("lon", catalog.location(at: i).longitude, decimals: nil)
                return o.text
            }
            var object = JSONObject()
            object.set("category", category?.rawValue ?? "")
            object.set("lat", location?.latitude ?? .nan, decimals: nil)
            object.set("lon", location?.longitude ?? .nan, decimals: nil)
            object.set("limit", limit)
            object.set("max_m", maxMeters, decimals: nil)
            object.set("results", array: results)
            io.output.writeRaw(object.text + "\n")
            return
        }
        let out = io.output
        out.writeRecord(["rank", "distance_m", "poi_id", "osm_type", "osm_id", "name", "category", "lat", "lon"])
        for (rank, m) in matches.enumerated() {
            let i = m.poi
            out.writeField(Int64(rank + 1))
            out.writeField(Self.roundedToDecimeter(m.distanceMeters).description)
            out.writeField(Int64(i))
            out.writeField(catalog.osmType(at: i)?.rawValue ?? "")
            out.writeField(catalog.osmID(at: i).map { String($0) } ?? "")
            out.writeField(catalog.name(at: i))
            out.writeField(catalog.category(at: i)?.rawValue ?? "")
            out.writeField(catalog.location(at: i).latitude)
            out.writeField(catalog.location(at: i).longitude)
            out.endRecord()
        }
    }
}
