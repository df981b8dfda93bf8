import Foundation
import Geodesy
import Testing
@testable import Workloads

@Suite struct WorkloadReaderTests {
    let scratch: ScratchDirectory
    init() throws { scratch = try ScratchDirectory() }

    @Test func writtenWorkloadReadsBackIdentically() throws {
        let w = WorkloadGenerator.make(WorkloadSpec(pois: 40, devices: 5, fixes: 500, seed: 3))
        let dir = scratch.url
        try WorkloadWriter.write(w, toDirectory: dir.path)
        let fences = try WorkloadReader.readFences(path: dir.path + "/fences.csv")
        #expect(fences == w.fences)
        let fixes = try WorkloadReader.readFixes(path: dir.path + "/fixes.csv", truthPath: dir.path + "/truth.csv")
        #expect(fixes.device == w.fixes.device && fixes.time == w.fixes.time)
        #expect(fixes.latitude == w.fixes.latitude && fixes.longitude == w.fixes.longitude)
        #expect(fixes.accuracy == w.fixes.accuracy)
        #expect(fixes.trueLatitude == w.fixes.trueLatitude && fixes.trueLongitude == w.fixes.trueLongitude)
    }

    @Test(arguments: [
        ("id,lat,lon,radius_m\n0,1,2,3\n1,91,2,3\n", 3, "lat"),
        ("id,lat,lon,radius_m\n0,1,2,-3\n", 2, "radius_m"),
        ("id,lat,lon,radius_m\n0,1,2,3\nx,1,2,3\n", 3, "id"),
        ("id,lat,lon,radius_m\n0,1,nan,3\n", 2, "lon"),
        ("id,lat,lon,radius_m\n0,1,2\n", 2, ""),
        ("lon,radius_m,lat,id\n181,3,1,0\n", 2, "lon")
    ])
    func badFenceRowsNameLineAndColumn(text: String, line: Int, column: String) throws {
        let dir = scratch.url
        let path = dir.path + "/fences.csv"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        #expect {
            _ = try WorkloadReader.readFences(path: path)
        } throws: { error in
            guard case let .badRow(p, l, c, _) = error as? WorkloadIOError else { return false }
            return p == path && l == line && c == column
        }
    }

    @Test func missingColumnAndMissingFileAreNamed() throws {
        let dir = scratch.url
        let path = dir.path + "/fences.csv"
        try "id,lat,radius_m\n".write(toFile: path, atomically: true, encoding: .utf8)
        #expect(throws: WorkloadIOError.missingColumn(path: path, column: "lon")) {
            _ = try WorkloadReader.readFences(path: path)
        }
        #expect {
            _ = try WorkloadReader.readFences(path: dir.path + "/absent.csv")
        } throws: { error in
            guard case let .cannotOpen(path, _) = error as? WorkloadIOError else { return false }
            return path == dir.path + "/absent.csv" && !"\(error)".contains(":0:")
        }
    }

    @Test func truthLengthMustMatch() throws {
        let dir = scratch.url
        try "device,t,lat,lon,accuracy_m\n0,1,2,3,4\n0,2,2,3,4\n".write(toFile: dir.path + "/fixes.csv", atomically: true, encoding: .utf8)
        try "true_lat,true_lon\n2,3\n".write(toFile: dir.path + "/truth.csv", atomically: true, encoding: .utf8)
        let mismatch = WorkloadIOError.lengthMismatch(
            path: dir.path + "/truth.csv", fixesPath: dir.path + "/fixes.csv", expected: 2, found: 1)
        #expect(throws: mismatch) {
            _ = try WorkloadReader.readFixes(path: dir.path + "/fixes.csv", truthPath: dir.path + "/truth.csv")
        }
        // The message names both files, so a user knows which pair disagrees.
        #expect(mismatch.description == dir.path + "/truth.csv: has 1 rows but " + dir.path + "/fixes.csv has 2; row k must be the truth of fix k")
    }
}

/// Rows that used to be accepted and then trapped or double-counted downstream.
@Suite struct WorkloadReaderRejectionTests {
    let scratch: ScratchDirectory
    init() throws { scratch = try ScratchDirectory() }

    /// A negative device id indexed out of range when the benchmark split fixes by device.
    @Test(arguments: ["-1", "-2147483648"])
    func negativeDeviceIsABadRow(device: String) throws {
        let path = try scratch.write("device,t,lat,lon,accuracy_m\n1,0,1,2,5\n\(device),1,1,2,5\n", name: "fixes.csv")
        #expect(
            throws: WorkloadIOError.badRow(
                path: path, line: 3, column: "device",
                message: "expected a whole number in 0...2147483647, found '\(device)'")
        ) {
            try WorkloadReader.readFixes(path: path)
        }
    }

    @Test func negativeFenceIDIsABadRow() throws {
        let path = try scratch.write("id,lat,lon,radius_m\n-4,1,2,3\n", name: "fences.csv")
        #expect(
            throws: WorkloadIOError.badRow(
                path: path, line: 2, column: "id",
                message: "expected a whole number in 0...2147483647, found '-4'")
        ) {
            try WorkloadReader.readFences(path: path)
        }
    }

    /// Two fences with one id were both counted by every index; now the second names the first.
    @Test func duplicateFenceIDsNameBothLines() throws {
        let path = try scratch.write("id,lat,lon,radius_m\n0,1,2,3\n7,1,2,3\n1,1,2,3\n7,5,6,7\n", name: "fences.csv")
        let error = WorkloadIOError.duplicateID(path: path, id: 7, firstLine: 3, line: 5)
        #expect(throws: error) { try WorkloadReader.readFences(path: path) }
        #expect(error.description == "\(path):5:id: fence id 7 repeats line 3")
        let all = try WorkloadReader.readFences(path: path, allowDuplicateIDs: true)
        #expect(all.map(\.id) == [0, 7, 1, 7])
        #expect(all[3].latitude == 5)
    }

    @Test func emptyFilesReadAsNothing() throws {
        #expect(try WorkloadReader.readFences(path: try scratch.write("id,lat,lon,radius_m\n", name: "fences.csv")).isEmpty)
        #expect(try WorkloadReader.readFixes(path: try scratch.write("device,t,lat,lon,accuracy_m\n", name: "fixes.csv")).count == 0)
    }
}

/// A fix without a recorded accuracy never becomes accuracy 0 silently: an error naming file,
/// line and column, or the caller's explicit assumption, counted.
@Suite struct WorkloadReaderMissingAccuracyTests {
    let scratch: ScratchDirectory
    init() throws { scratch = try ScratchDirectory() }

    @Test func emptyAccuracyIsABadRowNamingLineAndColumn() throws {
        let path = try scratch.write("device,t,lat,lon,accuracy_m\n1,0,1,2,5\n1,1,1,2,\n")
        let error = WorkloadIOError.badRow(
            path: path, line: 3, column: "accuracy_m",
            message: "no accuracy recorded (empty field): give an assumed accuracy to read this file")
        #expect(throws: error) { try WorkloadReader.readFixes(path: path) }
        #expect(error.description.hasPrefix("\(path):3:accuracy_m: no accuracy recorded"))
    }

    @Test func absentAccuracyColumnIsAMissingColumn() throws {
        let path = try scratch.write("device,t,lat,lon\n1,0,1,2\n")
        #expect(throws: WorkloadIOError.missingColumn(path: path, column: "accuracy_m")) { try WorkloadReader.readFixes(path: path) }
        let assumed = try WorkloadReader.readFixes(path: path, assumedAccuracy: 12.5)
        #expect(assumed.accuracy == [12.5] && assumed.assumedAccuracyCount == 1)
    }

    /// Only the empty fields get the assumption; recorded ones (0 included) are kept and not counted.
    @Test func assumptionFillsOnlyEmptyFieldsAndCountsThem() throws {
        let path = try scratch.write("device,t,lat,lon,accuracy_m\n1,0,1,2,\n1,1,1,2,0\n2,1,1,2,\n1,2,1,2,7.5\n")
        let fixes = try WorkloadReader.readFixes(path: path, assumedAccuracy: 25)
        #expect(fixes.accuracy == [25, 0, 25, 7.5])
        #expect(fixes.assumedAccuracyCount == 2)
        let zero = try WorkloadReader.readFixes(path: path, assumedAccuracy: 0)
        #expect(zero.accuracy == [0, 0, 0, 7.5] && zero.assumedAccuracyCount == 2)
        let huge = try WorkloadReader.readFixes(path: path, assumedAccuracy: 1e300)
        #expect(huge.accuracy[0] == 1e300)
        // A bad recorded value is still an error with an assumption.
        let bad = try scratch.write("device,t,lat,lon,accuracy_m\n1,0,1,2,-1\n")
        #expect(throws: WorkloadIOError.badRow(path: bad, line: 2, column: "accuracy_m", message: "expected a value >= 0, found '-1'")) {
            try WorkloadReader.readFixes(path: bad, assumedAccuracy: 5)
        }
    }

    @Test func recordedAccuraciesCountNoAssumption() throws {
        let path = try scratch.write("device,t,lat,lon,accuracy_m\n1,0,1,2,3\n")
        let fixes = try WorkloadReader.readFixes(path: path, assumedAccuracy: 9)
        #expect(fixes.accuracy == [3] && fixes.assumedAccuracyCount == 0)
        #expect(try WorkloadReader.readFixes(path: path).assumedAccuracyCount == 0)
    }
}

/// The one validation of fence and fix rows every command shares: radii in (0, πR], POI ids
/// and tiers that are ids, fix times in order where a command asks for it.
@Suite struct WorkloadReaderRuleTests {
    let scratch: ScratchDirectory
    init() throws { scratch = try ScratchDirectory() }

    @Test(arguments: ["0", "-0", "1e308", "1e100", "20015200", "nan", "-5"])
    func fenceRadiusOutsideZeroToHalfTheCircumferenceIsABadRow(radius: String) throws {
        let path = try scratch.write("id,lat,lon,radius_m\n0,1,2,3\n1,1,2,\(radius)\n", name: "fences.csv")
        #expect {
            try WorkloadReader.readFences(path: path)
        } throws: { error in
            guard case let .badRow(p, 3, "radius_m", message) = error as? WorkloadIOError else { return false }
            return p == path && message.contains(radius == "nan" ? "number" : "20015114")
        }
        // The largest radius is accepted: a circle over the whole sphere.
        let whole = try scratch.write("id,lat,lon,radius_m\n0,1,2,20015114\n", name: "whole.csv")
        #expect(try WorkloadReader.readFences(path: whole).map(\.radius) == [20015114])
    }

    @Test(arguments: [("poi_id", "-1,0"), ("tier", "0,-1"), ("tier", "0,2147483648")])
    func negativePOIIDOrTierIsABadRow(column: String, fields: String) throws {
        let path = try scratch.write("id,lat,lon,radius_m,poi_id,tier\n0,1,2,3,0,0\n1,1,2,3,\(fields)\n", name: "fences.csv")
        #expect {
            try WorkloadReader.readFences(path: path)
        } throws: { error in
            guard case let .badRow(_, 3, c, _) = error as? WorkloadIOError else { return false }
            return c == column
        }
    }

    @Test func fixTimesGoingBackWithinADeviceAreRefusedWhereOrderMatters() throws {
        // Device 1 goes back from 20 to 15 on line 5; device 2 interleaving earlier is fine.
        let path = try scratch.write("device,t,lat,lon,accuracy_m\n1,10,1,2,5\n2,5,1,2,5\n1,20,1,2,5\n1,15,1,2,5\n", name: "fixes.csv")
        #expect(try WorkloadReader.readFixes(path: path).count == 4)  // stabbing: any order
        #expect {
            try WorkloadReader.readFixes(path: path, order: .perDevice)
        } throws: { error in
            guard case let .badRow(p, 5, "t", message) = error as? WorkloadIOError else { return false }
            return p == path && message.contains("line 4")
        }
        let equal = try scratch.write("device,t,lat,lon,accuracy_m\n1,10,1,2,5\n1,10,1,2,6\n", name: "equal.csv")
        #expect(try WorkloadReader.readFixes(path: equal, order: .perDevice).count == 2)
    }

    @Test func aLongFieldIsQuotedShortAndALongLineEndsTheRead() throws {
        let long = String(repeating: "7", count: 5_000)
        let path = try scratch.write("id,lat,lon,radius_m\n0,\(long)x,2,3\n", name: "fences.csv")
        #expect {
            try WorkloadReader.readFences(path: path)
        } throws: { error in
            "\(error)".count < 200 && "\(error)".hasPrefix("\(path):2:lat: ")
        }
        let huge = try scratch.write("id,lat,lon,radius_m\n0,1,2,3\n" + String(repeating: "9", count: 2 << 20) + "\n", name: "huge.csv")
        #expect {
            try WorkloadReader.readFences(path: huge)
        } throws: { error in
            "\(error)".hasPrefix("\(huge):3: ") && "\(error)".contains("1048576")
        }
    }
}
