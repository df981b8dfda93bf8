import FastCSV
import Geodesy

/// Reads the workload files of docs/WORKLOADS.md through FastCSV, columns found by header name.
///
/// Every row is validated: coordinates must be finite with |lat| <= 90 and |lon| <= 180, radii
/// and accuracies finite and >= 0, fence ids and devices whole numbers in `0...Int32.max`, fence
/// ids unique (unless the caller allows repeats), times finite. The first bad row
/// ends the read with ``WorkloadIOError/badRow(path:line:column:message:)`` naming the file, the
/// line and the column; nothing is dropped silently.
public enum WorkloadReader {
    /// Reads `fences.csv` (`id,lat,lon,radius_m,poi_id,tier`; `poi_id` and `tier` optional).
    /// - Parameters:
    ///   - path: the fences file.
    ///   - allowDuplicateIDs: when false (the default) a second row with an id already read is
    ///     ``WorkloadIOError/duplicateID(path:id:firstLine:line:)``, naming both lines; when true
    ///     every row is kept. Checking costs one hash-table insert per row.
    public static func readFences(path: String, allowDuplicateIDs: Bool = false) throws(WorkloadIOError) -> [WorkloadFence] {
        var fences: [WorkloadFence] = []
        var lineByID: [Int32: Int] = [:]
        try forEachRow(path: path, required: ["id", "lat", "lon", "radius_m"], optional: ["poi_id", "tier"]) {
            (row: inout RowParser) throws(WorkloadIOError) in
            let id = try row.identifier(0)
            if !allowDuplicateIDs, let line = row.record?.line, let first = lineByID.updateValue(line, forKey: id) {
                throw .duplicateID(path: path, id: id, firstLine: first, line: line)
            }
            let lat = try row.latitude(1), lon = try row.longitude(2)
            let radius = try row.nonNegative(3)
            let poi = try row.optionalInt32(4) ?? id
            let tier = try row.optionalInt32(5) ?? 0
            fences.append(WorkloadFence(id: id, latitude: lat, longitude: lon, radius: radius, poiID: poi, tier: tier))
        }
        return fences
    }

    /// Reads `fixes.csv` (`device,t,lat,lon,accuracy_m`) and, when `truthPath` is given,
    /// `truth.csv` (`true_lat,true_lon`, row k = truth of fix k; the row counts must agree).
    ///
    /// A fix without a recorded accuracy (an empty `accuracy_m` field, or no such column) is
    /// never given one silently: without `assumedAccuracy` it is
    /// ``WorkloadIOError/badRow(path:line:column:message:)`` (column `accuracy_m`) or
    /// ``WorkloadIOError/missingColumn(path:column:)``; with it, the fix gets `assumedAccuracy`
    /// metres and is counted in ``FixStream/assumedAccuracyCount``.
    /// - Parameters:
    ///   - path: the fixes file.
    ///   - truthPath: the truth file, or nil for none.
    ///   - assumedAccuracy: metres, finite and >= 0 (a precondition: validate user input
    ///     before), or nil to require a recorded accuracy on every fix.
    public static func readFixes(path: String, truthPath: String? = nil,
                                 assumedAccuracy: Double? = nil) throws(WorkloadIOError) -> FixStream {
        if let assumedAccuracy { precondition(assumedAccuracy.isFinite && assumedAccuracy >= 0, "assumed accuracy \(assumedAccuracy)") }
        var fixes = FixStream()
        let accuracyColumn: [String] = ["accuracy_m"]
        try forEachRow(path: path, required: ["device", "t", "lat", "lon"] + (assumedAccuracy == nil ? accuracyColumn : []),
                       optional: assumedAccuracy == nil ? [] : accuracyColumn) {
            (row: inout RowParser) throws(WorkloadIOError) in
            fixes.device.append(try row.identifier(0))
            fixes.time.append(try row.finite(1))
            fixes.latitude.append(try row.latitude(2))
            fixes.longitude.append(try row.longitude(3))
            if let assumedAccuracy, row.isAbsentOrEmpty(4) {
                fixes.accuracy.append(assumedAccuracy)
                fixes.assumedAccuracyCount += 1
            } else if row.isAbsentOrEmpty(4) {
                throw row.fail(4, "no accuracy recorded (empty field): give an assumed accuracy to read this file")
            } else {
                fixes.accuracy.append(try row.nonNegative(4))
            }
        }
        if let truthPath {
            fixes.trueLatitude.reserveCapacity(fixes.count)
            fixes.trueLongitude.reserveCapacity(fixes.count)
            try forEachRow(path: truthPath, required: ["true_lat", "true_lon"], optional: []) {
                (row: inout RowParser) throws(WorkloadIOError) in
                fixes.trueLatitude.append(try row.latitude(0))
                fixes.trueLongitude.append(try row.longitude(1))
            }
            if fixes.trueLatitude.count != fixes.count {
                throw .lengthMismatch(path: truthPath, expected: fixes.count, found: fixes.trueLatitude.count)
            }
        }
        return fixes
    }

    /// Runs `body` once per data row; `row` reads the `required` then `optional` columns by
    /// position in that combined list.
    static func forEachRow(
        path: String, required: [String], optional: [String],
        _ body: (inout RowParser) throws(WorkloadIOError) -> Void
    ) throws(WorkloadIOError) {
        do {
            let reader = try CSVReader(path: path)
            let header = try CSVHeader(reading: reader)
            var columns = try header.requireIndexes(of: required)
            columns += optional.map { header.index(of: $0) ?? -1 }
            var row = RowParser(path: path, names: required + optional, columns: columns, fieldCount: header.names.count)
            while let record = try reader.nextRecord() {
                row.record = record
                try row.checkFieldCount()
                try body(&row)
            }
        } catch let error as CSVError {
            if error.kind == .io { throw .cannotOpen(path: path, reason: error.message) }
            if error.kind == .missingColumn, let name = error.columnName {
                throw .missingColumn(path: path, column: name)
            }
            throw .badRow(path: path, line: error.line, column: error.columnLabel, message: error.message)
        } catch let error as WorkloadIOError {
            throw error
        } catch {
            throw .badRow(path: path, line: 0, column: "", message: "\(error)")
        }
    }
}

/// Typed field access for one workload row, producing errors that name file, line and column.
struct RowParser {
    let path: String
    let names: [String]
    let columns: [Int]
    let fieldCount: Int
    var record: CSVRecord?

    func checkFieldCount() throws(WorkloadIOError) {
        let r = record!
        if r.count != fieldCount {
            throw .badRow(path: path, line: r.line, column: "", message: "expected \(fieldCount) fields, found \(r.count)")
        }
    }

    func fail(_ k: Int, _ message: String) -> WorkloadIOError {
        .badRow(path: path, line: record!.line, column: names[k], message: message)
    }

    func text(_ k: Int) -> String { record!.lossyString(at: columns[k]) }

    func number(_ k: Int) throws(WorkloadIOError) -> Double {
        guard let v = record!.double(at: columns[k]) else { throw fail(k, "expected a number, found '\(text(k))'") }
        return v
    }

    func finite(_ k: Int) throws(WorkloadIOError) -> Double {
        let v = try number(k)
        guard v.isFinite else { throw fail(k, "expected a finite number, found '\(text(k))'") }
        return v
    }

    func latitude(_ k: Int) throws(WorkloadIOError) -> Double {
        let v = try finite(k)
        guard abs(v) <= 90 else { throw fail(k, "latitude \(text(k)) is outside [-90, 90]") }
        return v
    }

    func longitude(_ k: Int) throws(WorkloadIOError) -> Double {
        let v = try finite(k)
        guard abs(v) <= 180 else { throw fail(k, "longitude \(text(k)) is outside [-180, 180]") }
        return v
    }

    func nonNegative(_ k: Int) throws(WorkloadIOError) -> Double {
        let v = try finite(k)
        guard v >= 0 else { throw fail(k, "expected a value >= 0, found '\(text(k))'") }
        return v
    }

    /// Whether column `k` is optional and absent from the header, or its field is empty.
    func isAbsentOrEmpty(_ k: Int) -> Bool {
        columns[k] < 0 || record![columns[k]].isEmpty
    }

    func int32(_ k: Int) throws(WorkloadIOError) -> Int32 {
        guard let v = record!.int64(at: columns[k]), let small = Int32(exactly: v) else {
            throw fail(k, "expected a whole number in the 32-bit range, found '\(text(k))'")
        }
        return small
    }

    /// An id: a whole number in `0...Int32.max`.
    func identifier(_ k: Int) throws(WorkloadIOError) -> Int32 {
        let v = try int32(k)
        guard v >= 0 else { throw fail(k, "expected a whole number in 0...\(Int32.max), found '\(text(k))'") }
        return v
    }

    func optionalInt32(_ k: Int) throws(WorkloadIOError) -> Int32? {
        columns[k] < 0 ? nil : try int32(k)
    }
}
