import FastCSV
import POIData

extension PoiCommand {
    /// `poi nearest`: the K nearest POIs of the category, as CSV or JSON.
    func writeNearest(_ catalog: POICatalog, _ io: ToolIO) {
        let index = POIIndex(catalog)
        let matches = index.nearest(category, to: location!, k: limit, maxDistanceMeters: maxMeters)
        if json {
            let results = matches.enumerated().map { rank, m in
                let i = m.poi
                return JSONText.object([
                    ("rank", String(rank + 1)),
                    ("distance_m", Self.metresText(m.distanceMeters)),
                    ("poi_id", String(i)),
                    ("osm_type", catalog.osmType(at: i).map { JSONText.string($0.rawValue) } ?? "null"),
                    ("osm_id", catalog.osmID(at: i).map { String($0) } ?? "null"),
                    ("name", JSONText.string(catalog.name(at: i))),
                    ("category", catalog.category(at: i).map { JSONText.string($0.rawValue) } ?? "null"),
                    ("lat", JSONText.number(catalog.location(at: i).latitude)),
                    ("lon", JSONText.number(catalog.location(at: i).longitude)),
                ])
            }
            let object = JSONText.object([
                ("category", JSONText.string(category!.rawValue)),
                ("lat", JSONText.number(location!.latitude)),
                ("lon", JSONText.number(location!.longitude)),
                ("limit", String(limit)),
                ("max_m", JSONText.number(maxMeters)),
                ("results", JSONText.array(results)),
            ])
            io.output.writeRaw(object + "\n")
            return
        }
        let out = io.output
        out.writeRecord(["rank", "distance_m", "poi_id", "osm_type", "osm_id", "name", "category", "lat", "lon"])
        for (rank, m) in matches.enumerated() {
            let i = m.poi
            out.writeField(Int64(rank + 1))
            out.writeField(Self.metresText(m.distanceMeters))
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
