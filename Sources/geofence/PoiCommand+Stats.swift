import JSON
import CommandSupport
import Geodesy
import POIData

extension PoiCommand {
    /// `poi stats`: counts, skipped rows by reason, duplicates, bounding box; with `outlines`
    /// (`--areas`), the outlines matched, of POIs with a category, and unused.
    func writeStats(_ catalog: POICatalog, outlines: POIOutlines?, _ io: ToolIO) {
        let outlined = outlines?.pois ?? []
        let categorized = outlined.filter { catalog.category(at: $0) != nil }.count
        let counts = catalog.countsByCategory
        let report = catalog.report
        let box = catalog.boundingBox
        let skippedReasons = report.skipped.keys.sorted()
        if json {
            var categories = JSONObject()
            for category in POICategory.allCases { categories.set(category.rawValue, counts[category] ?? 0) }
            categories.set("none", catalog.uncategorizedCount)
            let duplicates = report.duplicates.map { duplicate in
                var o = JSONObject()
                o.set("osm_type", duplicate.osmType.rawValue)
                o.set("osm_id", Int(duplicate.osmID))
                o.set("first_line", duplicate.firstLine)
                o.set("line", duplicate.line)
                return o.text
            }
            var skipped = JSONObject()
            for reason in skippedReasons { skipped.set(reason.rawValue, report.skipped[reason] ?? 0) }
            var object = JSONObject()
            object.set("file", sourceName)
            object.set("rows", catalog.count)
            object.set("rows_read", report.rowsRead)
            object.set("categories", object: categories)
            object.set("skipped", object: skipped)
            object.set("duplicates", report.duplicates.count)
            object.set("duplicate_rows", array: duplicates)
            if box.isEmpty {
                object.setNull("bbox")
            } else {
                var bbox = JSONObject()
                bbox.set("south", box.south, decimals: nil)
                bbox.set("west", box.west, decimals: nil)
                bbox.set("north", box.north, decimals: nil)
                bbox.set("east", box.east, decimals: nil)
                object.set("bbox", object: bbox)
            }
            if let outlines {
                var o = JSONObject()
                o.set("matched", outlines.count)
                o.set("with_category", categorized)
                o.set("unused", outlines.unused.count)
                object.set("outlines", object: o)
            }
            io.output.writeRaw(object.text + "\n")
            return
        }
        var lines = ["file: \(sourceName)", "rows: \(catalog.count) loaded of \(report.rowsRead) read", "categories:"]
        for category in POICategory.allCases {
            lines.append("  " + category.rawValue.padding(13) + String(counts[category] ?? 0))
        }
        lines.append("  " + "(none)".padding(13) + String(catalog.uncategorizedCount))
        lines.append("skipped: \(report.skippedCount)")
        for reason in skippedReasons {
            lines.append("  " + reason.rawValue.padding(24) + String(report.skipped[reason]!))
        }
        lines.append("duplicates: \(report.duplicates.count)")
        for d in report.duplicates {
            lines.append("  \(d.osmType.rawValue)/\(d.osmID): line \(d.line) repeats line \(d.firstLine)")
        }
        if box.isEmpty {
            lines.append("bounding box: none")
        } else {
            lines.append("bounding box: lat \(box.south) ... \(box.north), lon \(box.west) ... \(box.east)")
        }
        if let outlines {
            lines.append("outlines: \(outlines.count) matched, \(categorized) of a POI with a category, \(outlines.unused.count) unused")
        }
        io.output.writeRaw(lines.joined(separator: "\n") + "\n")
    }
}
