import Foundation
import Geodesy
import Testing
@testable import Workloads

@Suite struct WorkloadGeneratorTests {
    @Test func sameSeedSameWorkloadOtherSeedOther() {
        let spec = WorkloadSpec(pois: 50, devices: 7, fixes: 700, seed: 42)
        let a = WorkloadGenerator.make(spec), b = WorkloadGenerator.make(spec)
        #expect(a.fences == b.fences)
        #expect(a.fixes.latitude == b.fixes.latitude && a.fixes.time == b.fixes.time)
        var other = spec
        other.seed = 43
        #expect(WorkloadGenerator.make(other).fixes.latitude != a.fixes.latitude)
    }

    @Test func shapeMatchesTheSpec() throws {
        let spec = WorkloadSpec(pois: 100, devices: 10, fixes: 1005, seed: 1, noise: .gaussian)
        let w = WorkloadGenerator.make(spec)
        #expect(w.fences.count == 300)
        #expect(w.fences.map(\.id) == (0..<300).map(Int32.init))
        #expect(Set(w.fences.map(\.radius)) == [1609.344, 4828.032, 8046.72])
        #expect(w.fixes.count == 1005)  // exactly as asked: 5 devices have 101 fixes, 5 have 100
        #expect(
            Dictionary(grouping: w.fixes.device, by: { $0 }).mapValues(\.count).values.sorted() == [100, 100, 100, 100, 100, 101, 101, 101, 101, 101])
        #expect(WorkloadGenerator.make(WorkloadSpec(pois: 0, devices: 3, fixes: 0, seed: 1)).fixes.count == 0)
        #expect(Set(WorkloadGenerator.make(WorkloadSpec(pois: 0, devices: 3_000_000_000, fixes: 2, seed: 1)).fixes.device) == [0, 1])
        #expect(w.fixes.hasTruth)
        // Sorted by time, every coordinate valid, accuracy within the generator's bounds.
        for k in 1..<w.fixes.count { #expect(w.fixes.time[k - 1] <= w.fixes.time[k]) }
        for k in 0..<w.fixes.count {
            _ = try LatLng(latitude: w.fixes.latitude[k], longitude: w.fixes.longitude[k])
            #expect((3...150).contains(w.fixes.accuracy[k]))
        }
        // Gaussian noise with sigma = accuracy/2 stays within a few hundred meters of the truth.
        for k in 0..<w.fixes.count {
            let a = try LatLng(latitude: w.fixes.latitude[k], longitude: w.fixes.longitude[k]).unitVector
            let t = try LatLng(latitude: w.fixes.trueLatitude[k], longitude: w.fixes.trueLongitude[k]).unitVector
            let meters = (a.chord2(to: t)).squareRoot() * Earth.meanRadius
            #expect(meters < 6 * 150)
        }
    }

    @Test func writtenFilesHaveTheDesignHeadersAndDecimals() throws {
        let w = WorkloadGenerator.make(WorkloadSpec(pois: 3, devices: 2, fixes: 4, seed: 9))
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("wl-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        try WorkloadWriter.write(w, toDirectory: dir.path)
        let fences = try String(contentsOf: dir.appendingPathComponent("fences.csv"), encoding: .utf8)
            .split(separator: "\n")
        #expect(fences.first == "id,lat,lon,radius_m,poi_id,tier")
        #expect(fences.count == 10)
        let f1 = fences[2].split(separator: ",")
        #expect(f1[0] == "1" && f1[3] == "4828.032" && f1[4] == "0" && f1[5] == "1")
        #expect(Double(String(f1[1])) == w.fences[1].latitude)
        let fixes = try String(contentsOf: dir.appendingPathComponent("fixes.csv"), encoding: .utf8)
            .split(separator: "\n")
        #expect(fixes.first == "device,t,lat,lon,accuracy_m" && fixes.count == 5)
        for (k, line) in fixes.dropFirst().enumerated() {
            let f = line.split(separator: ",").map(String.init)
            #expect(Int32(f[0]) == w.fixes.device[k])
            #expect(Double(f[1]) == w.fixes.time[k])
            #expect(Double(f[2]) == w.fixes.latitude[k] && Double(f[3]) == w.fixes.longitude[k])
            #expect(f[2].split(separator: ".")[1].count == 7)
        }
        let truth = try String(contentsOf: dir.appendingPathComponent("truth.csv"), encoding: .utf8)
            .split(separator: "\n")
        #expect(truth.first == "true_lat,true_lon" && truth.count == 5)
    }
}
