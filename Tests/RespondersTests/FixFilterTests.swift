import Geodesy
import Testing
@testable import Responders

@Suite struct FixFilterTests {
    @Test func keepsOnTheTimeThresholdOrBeyondTheDistanceThreshold() {
        var filter = FixFilter(profile: .onDuty)  // 60 s or 50 m
        #expect(filter.consider(fix(0)) == nil)  // first good fix
        #expect(filter.consider(fix(30, north: 10)) == .notDue)  // 30 s, 10 m
        #expect(filter.consider(fix(59, north: 49)) == .notDue)  // 59 s, 49 m
        #expect(filter.consider(fix(60, north: 49)) == nil)  // time reached (>= 60 s)
        #expect(filter.consider(fix(61, north: 98)) == .notDue)  // 1 s, 49 m from the last kept
        #expect(filter.consider(fix(62, north: 100)) == nil)  // 51 m: distance exceeded
        #expect(filter.keptCount == 3)
        #expect(filter.drops[.notDue] == 3)
        #expect(filter.drops.total == 3)
    }

    @Test func missionProfileKeepsMoreOften() {
        var filter = FixFilter(profile: .onMission)  // 15 s or 20 m
        var kept = 0
        for t in stride(from: 0.0, through: 150, by: 1) where filter.consider(fix(t)) == nil { kept += 1 }
        #expect(kept == 11)  // 0, 15, ..., 150 while standing still
        #expect(filter.drops[.notDue] == 140)
    }

    @Test func countsEveryDropByReason() {
        var filter = FixFilter(profile: .onMission)
        #expect(filter.consider(fix(100)) == nil)
        #expect(filter.consider(LocationFix(time: 101, latitude: .nan, longitude: 25, accuracy: 5)) == .invalid)
        #expect(filter.consider(LocationFix(time: 101, latitude: 91, longitude: 25, accuracy: 5)) == .invalid)
        #expect(filter.consider(LocationFix(time: 101, latitude: 60, longitude: 25, accuracy: -1)) == .invalid)
        #expect(filter.consider(LocationFix(time: .infinity, latitude: 60, longitude: 25, accuracy: 1)) == .invalid)
        #expect(filter.consider(fix(99)) == .outOfOrder)
        #expect(filter.consider(fix(100)) == .duplicate)
        #expect(filter.consider(fix(120, accuracy: 101)) == .inaccurate)
        #expect(filter.consider(fix(120, accuracy: 101)) == .duplicate)  // same time as the inaccurate one
        #expect(filter.consider(fix(121, north: 5_000)) == .implausibleSpeed)  // 5 km in 21 s
        #expect(filter.consider(fix(130, north: 30)) == nil)
        #expect(filter.drops[.invalid] == 4)
        #expect(filter.drops[.outOfOrder] == 1)
        #expect(filter.drops[.duplicate] == 2)
        #expect(filter.drops[.inaccurate] == 1)
        #expect(filter.drops[.implausibleSpeed] == 1)
        #expect(filter.drops.total == 9)
        #expect(filter.keptCount == 2)
    }

    @Test func speedCheckAllowsForAccuracy() {
        // 1,000 m in 10 s is 100 m/s, but with 300 m + 300 m of accuracy only 40 m/s is certain.
        var loose = FixFilter(profile: .onMission, maxAccuracy: 500)
        #expect(loose.consider(fix(0, accuracy: 300)) == nil)
        #expect(loose.consider(fix(10, north: 1_000, accuracy: 300)) == nil)
        #expect(loose.consider(fix(20, north: 2_700, accuracy: 300)) == .implausibleSpeed)  // 1,700 - 600 m in 10 s
    }

    @Test func aRealJumpIsAcceptedAfterTheSpeedDropLimit() {
        var filter = FixFilter(profile: .onDuty, speedDropLimit: 3)
        #expect(filter.consider(fix(0)) == nil)
        let far = 500_000.0  // a flight
        for t in 1...3 { #expect(filter.consider(fix(Double(t), north: far)) == .implausibleSpeed) }
        #expect(filter.consider(fix(4, north: far)) == nil)  // new starting point
        #expect(filter.consider(fix(64, north: far)) == nil)  // and tracking goes on there
        #expect(filter.drops[.implausibleSpeed] == 3)
    }

    /// One fix stamped far in the future (or a clock corrected after running ahead) must not
    /// silence the phone until the clock catches up: after `outOfOrderLimit` out-of-order drops
    /// the next valid fix restarts the filter, and tracking goes on from there.
    @Test func aClockThatStepsBackRestartsTheFilterAfterTheOutOfOrderLimit() {
        var filter = FixFilter(profile: .onDuty, outOfOrderLimit: 3)
        #expect(filter.consider(fix(1_000)) == nil)
        #expect(filter.consider(fix(1_000_000_000, north: 50)) == nil)  // stamped 31 years ahead, due by time
        for t in [1_060.0, 1_061, 1_062] { #expect(filter.consider(fix(t, north: 100)) == .outOfOrder) }
        #expect(filter.consider(fix(1_063, north: 100)) == nil)  // the new starting point
        #expect(filter.consider(fix(1_070, north: 110)) == .notDue)  // judged from it again
        #expect(filter.consider(fix(1_123, north: 110)) == nil)  // 60 s later: due
        #expect(filter.drops[.outOfOrder] == 3)
        // A single stale fix among good ones is still dropped, and the count starts again.
        #expect(filter.consider(fix(1_100)) == .outOfOrder)
        #expect(filter.consider(fix(1_124, north: 110)) == .notDue)
        for t in [1_101.0, 1_102, 1_103] { #expect(filter.consider(fix(t)) == .outOfOrder) }
        #expect(filter.consider(fix(1_104)) == nil)
    }

    @Test func offDutyKeepsNothingAndADutyChangeKeepsTheNextFix() {
        var filter = FixFilter(profile: .none)
        for t in 0..<10 { #expect(filter.consider(fix(Double(t), north: Double(t) * 100)) == .notDue) }
        filter.profile = .onDuty
        #expect(filter.consider(fix(10, north: 1_000)) == nil)
        filter.profile = .onMission
        #expect(filter.consider(fix(11, north: 1_000)) == nil)  // 1 s later, but the profile changed
        #expect(filter.consider(fix(12, north: 1_000)) == .notDue)
        filter.profile = .none
        #expect(filter.consider(fix(13, north: 1_010)) == nil)  // the off-duty report
        #expect(filter.consider(fix(200, north: 9_000)) == .notDue)
        #expect(filter.drops[.notDue] == 12)
    }

    /// Seeded property: every fix is either kept or counted once; kept fixes are in strictly
    /// increasing time, each at least `interval` after the previous or more than `distance` away,
    /// except a restart: a fix kept right after `outOfOrderLimit` out-of-order drops.
    @Test(arguments: [UInt64(1), 2, 3])
    func everyFixIsKeptOrCountedOnce(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        var filter = FixFilter(profile: .onDuty)
        var kept: [LocationFix] = []
        var restarts: Set<Int> = []  // indices in `kept`
        // The reference for rule 2: the latest time seen, the run of out-of-order fixes, and a
        // restart waiting for its first kept fix.
        var latest = -Double.infinity, outOfOrderRun = 0, restartPending = false
        var time = 0.0, north = 0.0
        let n = 5_000
        for _ in 0..<n {
            time += rng.nextUnit() < 0.05 ? -3 : (rng.nextUnit() < 0.05 ? 0 : 1 + 5 * rng.nextUnit())
            north += (rng.nextUnit() - 0.3) * 40
            let accuracy = rng.nextUnit() < 0.1 ? 150 : 3 + 20 * rng.nextUnit()
            let f =
                rng.nextUnit() < 0.01
                ? LocationFix(time: time, latitude: .nan, longitude: 25, accuracy: 5)
                : fix(time, north: north, accuracy: accuracy)
            var expectOutOfOrder = false
            if f.isValid && f.time < latest {
                if outOfOrderRun >= filter.outOfOrderLimit {
                    (outOfOrderRun, latest, restartPending) = (0, f.time, true)
                } else {
                    outOfOrderRun += 1
                    expectOutOfOrder = true
                }
            } else if f.isValid && f.time > latest {
                (outOfOrderRun, latest) = (0, f.time)
            }
            let reason = filter.consider(f)
            #expect((reason == .outOfOrder) == expectOutOfOrder, "seed \(seed): \(f) gave \(String(describing: reason))")
            if reason == nil {
                if restartPending { restarts.insert(kept.count) }
                restartPending = false
                kept.append(f)
            }
        }
        #expect(!restarts.isEmpty, "seed \(seed): no restart exercised")
        #expect(kept.count + filter.drops.total == n, "seed \(seed)")
        #expect(filter.keptCount == kept.count)
        for (k, (a, b)) in zip(kept, kept.dropFirst()).enumerated() where !restarts.contains(k + 1) {
            let meters = haversineDistance(
                LatLng(uncheckedLatitude: a.latitude, longitude: a.longitude),
                LatLng(uncheckedLatitude: b.latitude, longitude: b.longitude))
            #expect(b.time > a.time, "seed \(seed)")
            #expect(b.time - a.time >= 60 || meters > 50, "seed \(seed): kept \(b) after \(a)")
            #expect(b.accuracy <= 100)
        }
        for reason in FixDropReason.allCases where reason != .implausibleSpeed {
            #expect(filter.drops[reason] > 0, "seed \(seed): no \(reason) drop exercised")
        }
    }
}
