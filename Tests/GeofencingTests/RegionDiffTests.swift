import Geodesy
import Testing
@testable import Geofencing

private func region(_ id: MonitorPlanner.RegionID, _ lat: Double, _ r: Double) -> MonitorPlanner.Region {
    MonitorPlanner.Region(id: id, center: LatLng(uncheckedLatitude: lat, longitude: 0), radiusMeters: r)
}

@Suite struct RegionDiffTests {
    @Test func keepsIdenticalRegionsReplacesChangedOnesAndRemovesTheRest() {
        let current = [region(.fence(1), 1, 100), region(.fence(2), 2, 100), region(.refresh, 0, 500), region(.fence(3), 3, 100)]
        let target = [region(.fence(2), 2, 100), region(.fence(4), 4, 100), region(.refresh, 0.1, 800)]
        let diff = RegionDiff(from: current, to: target)
        #expect(diff.add.map(\.id) == [.fence(4), .refresh])
        #expect(diff.remove == [.fence(1), .fence(3), .refresh])
        #expect(diff.applied(to: current) == target.sorted { $0.id < $1.id })
        #expect(RegionDiff(from: target, to: target).isEmpty)
    }

    /// Random current and target sets: applying the diff always yields the target, and only
    /// regions that differ are touched. Seeded.
    @Test func applyingTheDiffYieldsTheTarget() {
        let seed: UInt64 = 42
        var rng = SplitMix64(seed: seed)
        func randomSet() -> [MonitorPlanner.Region] {
            var ids = Set<Int32>()
            while ids.count < Int(rng.next() % 15) { ids.insert(Int32(rng.next() % 20)) }
            var out = ids.map { region(.fence($0), Double($0 % 3), 100 + Double(rng.next() % 2)) }
            if rng.next() % 2 == 0 { out.append(region(.refresh, 0, 500)) }
            return out
        }
        for trial in 0..<200 {
            let current = randomSet(), target = randomSet()
            let diff = RegionDiff(from: current, to: target)
            #expect(diff.applied(to: current) == target.sorted { $0.id < $1.id }, "seed \(seed) trial \(trial)")
            #expect(diff.add.allSatisfy { !current.contains($0) }, "seed \(seed) trial \(trial)")
            #expect(
                diff.remove.allSatisfy { id in !target.contains { $0.id == id } || !target.contains(current.first { $0.id == id }!) },
                "seed \(seed) trial \(trial)")
        }
    }

    @Test func duplicatedCurrentRegionsAreClearedAndRegisteredOnce() {
        let r = region(.fence(7), 1, 100)
        let diff = RegionDiff(from: [r, r], to: [r])
        #expect(diff.remove == [.fence(7)] && diff.add == [r])
    }
}
