import FastCSV
import Geodesy

/// Reads the workload files of docs/WORKLOADS.md through FastCSV, columns found by header name.
///
/// This is the one validation of workload rows: every command that reads these files reads them
/// here, so one value gets one answer everywhere. Every row is validated: coordinates must be
/// finite with |lat| <= 90 and |lon| <= 180; a fence radius finite, > 0 and at most half the
/// Earth's circumference (``maximumFenceRadiusMeters``: a larger circle is the whole sphere);
/// accuracies finite and >= 0; fence ids, POI ids, tiers and devices whole numbers in
/// `0...Int32.max`; fence ids unique (unless the caller allows repeats); times finite and, where
/// the caller asks (``FixOrder``), not going back within a device. The first bad row ends the read
/// with ``WorkloadIOError/badRow(path:line:column:message:)`` naming the file, the line and the
/// column (quoting at most `FastCSV/MessageText/limit` bytes of the field); a line longer than
/// `FastCSV/CSVReader/defaultMaxRecordBytes` ends it too. Nothing is dropped silently.
public enum WorkloadReader {
    /// The largest fence radius a file may give: half the Earth's circumference (πR, about
    /// 20,015 km), where the circle covers the whole sphere.
    public static let maximumFenceRadiusMeters = Double.pi * Earth.meanRadius

    /// What order of fix times a reader requires.
    public enum FixOrder: Sendable {
        /// Any order (each fix is used on its own, e.g. stabbing).
        case any
        /// Within each device, times never go back (a detector or a simulation follows each
        /// device through time; a fix before its device's previous one would be dropped or
        /// misread). Fixes of different devices may interleave freely.
        case perDevice
    }

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
            let radius = try row.fenceRadius(3)
            let poi = try row.optionalIdentifier(4) ?? id
            let tier = try row.optionalIdentifier(5) ?? 0
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
    /// meters and is counted in ``FixStream/assumedAccuracyCount``.
    /// - Parameters:
    ///   - path: the fixes file.
    ///   - truthPath: the truth file, or nil for none.
    ///   - assumedAccuracy: meters, finite and >= 0 (a precondition: validate user input
    ///     before), or nil to require a recorded accuracy on every fix.
    ///   - order: ``FixOrder/perDevice`` makes a fix earlier than its device's previous fix a
    ///     bad row (column `t`, naming the previous fix's line).
    public static func readFixes(
        path: String, truthPath: String? = nil, assumedAccuracy: Double? = nil,
        order: FixOrder = .any
    ) throws(WorkloadIOError) -> FixStream {
        if let assumedAccuracy { precondition(assumedAccuracy.isFinite && assumedAccuracy >= 0, "assumed accuracy \(assumedAccuracy)") }
        var fixes = FixStream()
        var latestByDevice: [Int32: (time: Double, line: Int)] = [:]
        let accuracyColumn: [String] = ["accuracy_m"]
        try forEachRow(
            path: path, required: ["device", "t", "lat", "lon"] + (assumedAccuracy == nil ? accuracyColumn : []),
            optional: assumedAccuracy == nil ? [] : accuracyColumn
        ) {
            (row: inout RowParser) throws(WorkloadIOError) in
            let device = try row.identifier(0), time = try row.finite(1)
            if order == .perDevice, let line = row.record?.line {
                if let previous = latestByDevice[device], time < previous.time {
                    throw row.fail(
                        1,
                        "time \(row.shown(1)) of device \(device) is before its previous fix's "
                            + "\(previous.time) (line \(previous.line)): a device's fixes must be in time order")
                }
                latestByDevice[device] = (time, line)
            }
            fixes.device.append(device)
            fixes.time.append(time)
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
                throw .lengthMismatch(
                    path: truthPath, fixesPath: path, expected: fixes.count, found: fixes.trueLatitude.count)
            }
        }
        return fixes
    }

    /// Runs `body` once per data row; `row` reads the `required` then `optional` columns by
    /// position in that combined list.
    package static func forEachRow(
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
            let column = error.column == 0 && error.columnName == nil ? "" : error.columnLabel
            throw .badRow(path: path, line: error.line, column: column, message: error.message)
        } catch let error as WorkloadIOError {
            throw error
        } catch {
            throw .badRow(path: path, line: 0, column: "", message: "\(error)")
        }
    }
}

/// Typed field access for one workload row, producing errors that name file, line and column.
package struct RowParser {
    package let path: String
    package let names: [String]
    package let columns: [Int]
    package let fieldCount: Int
    package var record: CSVRecord?

    package func checkFieldCount() throws(WorkloadIOError) {
        let r = record!
        if r.count != fieldCount {
            throw .badRow(path: path, line: r.line, column: "", message: "expected \(fieldCount) fields, found \(r.count)")
        }
    }

    package func fail(_ k: Int, _ message: String) -> WorkloadIOError {
        .badRow(path: path, line: record!.line, column: names[k], message: message)
    }

    /// Field `k` as text (invalid UTF-8 replaced), for values such as a time-zone name.
    package func text(_ k: Int) -> String { record!.lossyString(at: columns[k]) }

    /// Field `k` as quoted in a message: at most ``MessageText/limit`` bytes of it.
    package func shown(_ k: Int) -> String { MessageText.clipped(record![columns[k]]) }

    package func number(_ k: Int) throws(WorkloadIOError) -> Double {
        guard let v = record!.double(at: columns[k]) else { throw fail(k, "expected a number, found '\(shown(k))'") }
        return v
    }

    package func finite(_ k: Int) throws(WorkloadIOError) -> Double {
        let v = try number(k)
        guard v.isFinite else { throw fail(k, "expected a finite number, found '\(shown(k))'") }
        return v
    }

    package func latitude(_ k: Int) throws(WorkloadIOError) -> Double {
        let v = try finite(k)
        guard abs(v) <= 90 else { throw fail(k, "latitude \(shown(k)) is outside [-90, 90]") }
        return v
    }

    package func longitude(_ k: Int) throws(WorkloadIOError) -> Double {
        let v = try finite(k)
        guard abs(v) <= 180 else { throw fail(k, "longitude \(shown(k)) is outside [-180, 180]") }
        return v
    }

    package func nonNegative(_ k: Int) throws(WorkloadIOError) -> Double {
        let v = try finite(k)
        guard v >= 0 else { throw fail(k, "expected a value >= 0, found '\(shown(k))'") }
        return v
    }

    /// Whether column `k` is optional and absent from the header, or its field is empty.
    package func isAbsentOrEmpty(_ k: Int) -> Bool {
        columns[k] < 0 || record![columns[k]].isEmpty
    }

    package func int32(_ k: Int) throws(WorkloadIOError) -> Int32 {
        guard let v = record!.int64(at: columns[k]), let small = Int32(exactly: v) else {
            throw fail(k, "expected a whole number in the 32-bit range, found '\(shown(k))'")
        }
        return small
    }

    /// An id: a whole number in `0...Int32.max`.
    package func identifier(_ k: Int) throws(WorkloadIOError) -> Int32 {
        let v = try int32(k)
        guard v >= 0 else { throw fail(k, "expected a whole number in 0...\(Int32.max), found '\(shown(k))'") }
        return v
    }

    /// An optional id column: nil when absent from the header.
    package func optionalIdentifier(_ k: Int) throws(WorkloadIOError) -> Int32? {
        columns[k] < 0 ? nil : try identifier(k)
    }

    /// A fence radius: finite, > 0 and at most ``WorkloadReader/maximumFenceRadiusMeters``.
    package func fenceRadius(_ k: Int) throws(WorkloadIOError) -> Double {
        let v = try finite(k)
        guard v > 0, v <= WorkloadReader.maximumFenceRadiusMeters else {
            throw fail(
                k,
                "expected a radius in meters > 0 and <= \(Int(WorkloadReader.maximumFenceRadiusMeters)) "
                    + "(half the Earth's circumference), found '\(shown(k))'")
        }
        return v
    }

    package func optionalInt32(_ k: Int) throws(WorkloadIOError) -> Int32? {
        columns[k] < 0 ? nil : try int32(k)
    }
}
