import Geodesy
import POIData

extension PoiCommand {
    /// `poi stats`: counts, skipped rows by reason, duplicates, bounding box.
    func writeStats(_ catalog: POICatalog, _ io: ToolIO) {
        let counts = catalog.countsByCategory
        let report = catalog.report
        let box = catalog.boundingBox
        let skippedReasons = report.skipped.keys.sorted()
        if json {
            let categories = POICategory.allCases.map { ($0.rawValue, String(counts[$0] ?? 0)) }
                + [("none", String(catalog.uncategorisedCount))]
            let duplicates = report.duplicates.map {
                JSONText.object([("osm_type", JSONText.string($0.osmType.rawValue)), ("osm_id", String($0.osmID)),
                                 ("first_line", String($0.firstLine)), ("line", String($0.line))])
            }
            let bbox = box.isEmpty ? "null" : JSONText.object([
                ("south", JSONText.number(box.south)), ("west", JSONText.number(box.west)),
                ("north", JSONText.number(box.north)), ("east", JSONText.number(box.east)),
            ])
            let object = JSONText.object([
                ("file", JSONText.string(sourceName)),
                ("rows", String(catalog.count)),
                ("rows_read", String(report.rowsRead)),
                ("categories", JSONText.object(categories)),
                ("skipped", JSONText.object(skippedReasons.map { ($0.rawValue, String(report.skipped[$0]!)) })),
                ("duplicates", String(report.duplicates.count)),
                ("duplicate_rows", JSONText.array(duplicates)),
                ("bbox", bbox),
            ])
            io.output.writeRaw(object + "\n")
            return
        }
        var lines = ["file: \(sourceName)", "rows: \(catalog.count) loaded of \(report.rowsRead) read", "categories:"]
        for category in POICategory.allCases {
            lines.append("  " + category.rawValue.padding(13) + String(counts[category] ?? 0))
        }
        lines.append("  " + "(none)".padding(13) + String(catalog.uncategorisedCount))
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
        io.output.writeRaw(lines.joined(separator: "\n") + "\n")
    }
}
