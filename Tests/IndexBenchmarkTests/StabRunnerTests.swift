import Testing
import IndexBenchmark
import SpatialIndex
import Workloads

/// The stabbing harness split over threads: every fix in exactly one part, a device's fixes
/// together and in order, and the same hits and checksum as one thread for every index.
@Suite struct StabRunnerTests {
    static let workload = WorkloadGenerator.make(WorkloadSpec(pois: 150, devices: 23, fixes: 4_000, seed: 11))
    static let fences = workload.fences.map { try! Fence(id: $0.id, latitude: $0.latitude, longitude: $0.longitude, radiusMeters: $0.radius) }

    @Test func partsSplitTheFixesByDevice() {
        let fixes = Self.workload.fixes
        let input = StabInput(fixes, threads: 4)
        #expect(input.parts.count == 4 && input.latitude == fixes.latitude && input.longitude == fixes.longitude)
        var seen = [Int](repeating: 0, count: fixes.count)
        for (t, part) in input.parts.enumerated() {
            let rows = part.rows ?? []
            #expect(rows.count == part.latitude.count && rows == rows.sorted())
            for (k, row) in rows.enumerated() {
                seen[Int(row)] += 1
                #expect(Int(fixes.device[Int(row)]) % 4 == t)
                #expect(part.latitude[k] == fixes.latitude[Int(row)] && part.longitude[k] == fixes.longitude[Int(row)])
            }
        }
        #expect(seen.allSatisfy { $0 == 1 })
        let single = StabInput(fixes, threads: 1)
        #expect(single.parts.count == 1 && single.parts[0].rows == nil)
    }

    @Test(arguments: IndexKind.allCases)
    func threadsGiveTheHitsAndChecksumOfOneThread(kind: IndexKind) throws {
        let one = try StabMeasurement.measure(kind, fences: Self.fences, input: StabInput(Self.workload.fixes, threads: 1), repetitions: 1)
        #expect(one.totals.hits > 1_000)
        for perFix in [false, true] {
            let three = try StabMeasurement.measure(
                kind, fences: Self.fences, input: StabInput(Self.workload.fixes, threads: 3, perFix: perFix), repetitions: 1)
            #expect(three.totals == one.totals, "\(kind) perFix \(perFix)")
            #expect(three.stats.candidates == one.stats.candidates)
        }
    }

    @Test func totalsAdd() {
        let a = StabTotals(hits: 2, checksum: .max), b = StabTotals(hits: 3, checksum: 5)
        #expect(a + b == StabTotals(hits: 5, checksum: 4))  // the checksum wraps
    }
}
