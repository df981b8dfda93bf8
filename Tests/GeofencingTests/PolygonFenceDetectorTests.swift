import Foundation
import GeoCells
import Geodesy
import SpatialIndex
import Testing
@testable import Geofencing

/// Polygon fences in the detector: decided on the signed distance to the polygon's boundary,
/// found through their enclosing circle, and skipped only where that is provably safe.
@Suite struct PolygonFenceDetectorTests {
    /// An L-shaped building 200 m on a side with the north-east quarter cut out, at `origin`
    /// (degrees), as rings of the points `origin + (north, east)` meters.
    static func lShape(at origin: LatLng) -> [[LatLng]] {
        let corners: [(Double, Double)] = [(0, 0), (0, 200), (100, 200), (100, 100), (200, 100), (200, 0)]
        return [corners.map { point(origin, $0.0, $0.1) }]
    }

    static func point(_ origin: LatLng, _ north: Double, _ east: Double) -> LatLng {
        destination(from: destination(from: origin, bearing: 0, distance: north), bearing: 90, distance: east)
    }

    static func run(_ d: inout TransitionDetector, _ fixes: [(Int32, Double, LatLng, Double)]) -> [TransitionEvent] {
        var events: [TransitionEvent] = []
        for (device, t, p, accuracy) in fixes {
            d.process(device: device, time: t, latitude: p.latitude, longitude: p.longitude, accuracy: accuracy, into: &events)
        }
        return events
    }

    @Test func aWalkThroughTheBuildingEntersAndExitsAndOneThroughTheNotchDoesNot() throws {
        let origin = try LatLng(latitude: 60.17, longitude: 24.94)
        let polygon = try Polygon(latLngRings: Self.lShape(at: origin))
        let fence = try FenceOutlines.enclosingFence(id: 9, polygon: polygon)
        let outlines = try FenceOutlines([(9, polygon)])
        // The circle holds the notch's middle (150 m, 150 m), the polygon does not.
        let notch = Self.point(origin, 150, 150).unitVector
        #expect(fence.contains(notch) && !polygon.contains(notch))
        #expect(outlines.contains(fence, notch) == false)
        // Device 1 walks east along north = 50 m (through the building: x from -100 to 300 m);
        // device 2 along north = 150 m, through the notch only after leaving the arm.
        var fixes: [(Int32, Double, LatLng, Double)] = []
        for k in 0...40 {
            let east = -100 + 10 * Double(k)
            fixes.append((1, Double(k) * 20, Self.point(origin, 50, east), 5))
            fixes.append((2, Double(k) * 20, Self.point(origin, 150, east), 5))
        }
        for shared in [false, true] {
            var d =
                shared
                ? try TransitionDetector(fences: [fence], index: PackedRTree([fence]), outlines: outlines)
                : try TransitionDetector(fences: [fence], outlines: outlines)
            let events = Self.run(&d, fixes)
            // Device 1: inside from east 0 to 200 m. The polygon rule (accuracy 5 m: entry margin
            // 3 m, exit margin 5 m on two fixes) enters on the first fix 10 m inside (east 10 m)
            // and exits on the second fix outside (east 220 m).
            #expect(events.filter { $0.device == 1 }.map(\.kind) == [.enter, .exit])
            #expect(events.first { $0.device == 1 && $0.kind == .enter }?.time == 220)
            #expect(events.first { $0.device == 1 && $0.kind == .exit }?.time == 640)
            // Device 2, along north 150 m: in the arm from east 0 to 100 m, then in the notch
            // (inside the circle, outside the polygon): enter, exit.
            #expect(events.filter { $0.device == 2 }.map(\.kind) == [.enter, .exit])
            // The same fences as circles fire for device 2 inside the notch too, and later.
            var circles = try TransitionDetector(fences: [fence])
            let circleEvents = Self.run(&circles, fixes)
            #expect(circleEvents.last { $0.device == 2 }!.time > events.last { $0.device == 2 }!.time)
        }
    }

    /// Polygon fences take the hysteresis rule with their own margins whatever the circles'
    /// rule: with accuracy 10 m, a fix on the move 6 m (0.6 × 10) inside is decisive for an
    /// entry, and two fixes in a row 10 m (1.0 × 10) outside for an exit. (No fix is still here:
    /// `stillSpeedMetersPerSecond` 0, as in the `hysteresis` preset.)
    @Test func polygonFencesUseTheHysteresisRuleWithTheirOwnMargins() throws {
        let origin = try LatLng(latitude: 40, longitude: -100)
        let square: [(Double, Double)] = [(0, 0), (0, 100), (100, 100), (100, 0)]
        let polygon = try Polygon(latLngRings: [square.map { Self.point(origin, $0.0, $0.1) }])
        let fence = try FenceOutlines.enclosingFence(id: 2, polygon: polygon)
        // Meters north of the south wall (negative: outside), along east 50 m, a fix every 30 s.
        let north: [Double] = [-50, 5, 7, -9, -9, -12, 12, -12, -12]
        let fixes = north.enumerated().map { (Int32(3), Double($0.offset) * 30, Self.point(origin, $0.element, 50), 10.0) }
        func events(_ c: TransitionDetectorConfiguration) throws -> [String] {
            var d = try TransitionDetector(fences: [fence], outlines: FenceOutlines([(2, polygon)]), configuration: c)
            return Self.run(&d, fixes).map { "\($0.kind)@\(Int($0.time))" }
        }
        var moving = TransitionDetectorConfiguration.default
        moving.stillSpeedMetersPerSecond = 0
        #expect(try events(moving) == ["enter@60", "exit@240"])
        #expect(try events(.hysteresis) == ["enter@60", "exit@240"])
        var c = moving
        c.polygonEnterAccuracyFactor = 0.4
        c.polygonExitAccuracyFactor = 0.8
        let looser = try events(c)
        #expect(looser == ["enter@30", "exit@120", "enter@180", "exit@240"], "\(looser)")
        c.exitConfirmations = 3
        let later = try events(c)
        #expect(later == ["enter@30", "exit@150", "enter@180"], "\(later)")
    }

    /// A still fix of a polygon fence (the device moved slower than `stillSpeedMetersPerSecond`,
    /// 0.8 m/s, since its previous fix) has margins of its own: with accuracy 10 m, 3 m
    /// (0.3 × 10) inside is decisive for an entry and 12 m (1.2 × 10) outside for an exit; a
    /// fix on the move keeps 6 m and 10 m.
    @Test func stillFixesOfPolygonFencesHaveTheirOwnMargins() throws {
        let origin = try LatLng(latitude: 40, longitude: -100)
        let square: [(Double, Double)] = [(0, 0), (0, 100), (100, 100), (100, 0)]
        let polygon = try Polygon(latLngRings: [square.map { Self.point(origin, $0.0, $0.1) }])
        let fence = try FenceOutlines.enclosingFence(id: 2, polygon: polygon)
        // Meters north of the south wall (negative: outside), a fix every 30 s.
        func events(_ north: [Double], _ c: TransitionDetectorConfiguration = .default) throws -> [String] {
            let fixes = north.enumerated().map { (Int32(3), Double($0.offset) * 30, Self.point(origin, $0.element, 50), 10.0) }
            var d = try TransitionDetector(fences: [fence], outlines: FenceOutlines([(2, polygon)]), configuration: c)
            return Self.run(&d, fixes).map { "\($0.kind)@\(Int($0.time))" }
        }
        var moving = TransitionDetectorConfiguration.default
        moving.stillSpeedMetersPerSecond = 0
        // Standing 4 m inside (steps of 0.27 m/s): entered on the still margin only.
        let standing: [Double] = [-50, -25, -4, 4, 4]
        #expect(try events(standing) == ["enter@90"])
        #expect(try events(standing, moving) == [])
        // Standing 8 m inside, then 11 m outside twice (0.63 m/s): a still fix needs 12 m to
        // count for the exit; on the move 10 m do.
        let nearWall: [Double] = [-50, -25, -4, 8, 8, -11, -11, -11, 8]
        #expect(try events(nearWall) == ["enter@90"])
        #expect(try events(nearWall, moving) == ["enter@90", "exit@180", "enter@240"])
        // Walking in (25 m in 30 s, 0.83 m/s): 5 m inside is not decisive on the move.
        #expect(try events([-50, -20, 5, 30]) == ["enter@90"])
        // The still factors are the ones read.
        var c = TransitionDetectorConfiguration.default
        c.polygonStillEnterAccuracyFactor = 0.5
        #expect(try events(standing, c) == [])
        c = .default
        c.polygonStillExitAccuracyFactor = 1.05
        #expect(try events(nearWall, c) == ["enter@90", "exit@180", "enter@240"])
    }

    /// The neighborhoods reach the still exit margin: a device whose first fix (still: there is
    /// no previous one) is 150 m outside a polygon fence, with accuracy 60 m and a still exit
    /// factor of 3, is not decisively outside it (180 m needed), so the fence stays unknown and
    /// walking into it (0.67 m/s, still) enters silently, as a detector that decides every
    /// fence on every fix has it. A neighborhood reaching only the moving factors (1.0 × 100 m
    /// + 30 m of slack) would miss the fence on the first fix and add it later as outside,
    /// which then enters.
    @Test func neighborhoodsReachTheStillExitMargin() throws {
        let origin = try LatLng(latitude: 40, longitude: -100)
        let square: [(Double, Double)] = [(0, 0), (0, 100), (100, 100), (100, 0)]
        let polygon = try Polygon(latLngRings: [square.map { Self.point(origin, $0.0, $0.1) }])
        let fence = try FenceOutlines.enclosingFence(id: 2, polygon: polygon)
        var c = TransitionDetectorConfiguration.default
        c.polygonStillExitAccuracyFactor = 3
        c.neighborhoodSlackMeters = 30
        // Along the diagonal towards the south-west corner, which lies on the enclosing circle.
        let steps = (0..<14).map { -150 / 2.0.squareRoot() + Double($0) * 20 / 2.0.squareRoot() }
        let fixes = steps.enumerated().map { (Int32(5), Double($0.offset) * 30, Self.point(origin, $0.element, $0.element), 60.0) }
        #expect(steps.last! > 40)
        var shared = try TransitionDetector(
            fences: [fence], index: PackedRTree([fence]), outlines: FenceOutlines([(2, polygon)]), configuration: c)
        #expect(Self.run(&shared, fixes).isEmpty)
        var own = try TransitionDetector(fences: [fence], outlines: FenceOutlines([(2, polygon)]), configuration: c)
        #expect(Self.run(&own, fixes).isEmpty)
        // With the still exit factor at 1.0 the first fix is decisively outside: an entry.
        c.polygonStillExitAccuracyFactor = 1
        var moving = try TransitionDetector(
            fences: [fence], index: PackedRTree([fence]), outlines: FenceOutlines([(2, polygon)]), configuration: c)
        #expect(Self.run(&moving, fixes).map(\.kind) == [.enter])
    }

    /// The polygon factors are validated, round-trip through JSON, and take their defaults
    /// when a configuration written without them is read.
    @Test func polygonFactorsValidateAndRoundTrip() throws {
        for bad in [-1.0, .nan, .infinity] {
            var c = TransitionDetectorConfiguration.default
            c.polygonEnterAccuracyFactor = bad
            #expect(throws: GeofenceError.self) { try c.validate() }
            c = .default
            c.polygonExitAccuracyFactor = bad
            #expect(throws: GeofenceError.self) { try c.validate() }
            c = .default
            c.polygonStillEnterAccuracyFactor = bad
            #expect(throws: GeofenceError.self) { try c.validate() }
            c = .default
            c.polygonStillExitAccuracyFactor = bad
            #expect(throws: GeofenceError.self) { try c.validate() }
        }
        var c = TransitionDetectorConfiguration.default
        c.polygonEnterAccuracyFactor = 0.25
        c.polygonExitAccuracyFactor = 2
        c.polygonStillEnterAccuracyFactor = 0.125
        c.polygonStillExitAccuracyFactor = 3
        #expect(try JSONDecoder().decode(TransitionDetectorConfiguration.self, from: try JSONEncoder().encode(c)) == c)
        let names = ["polygonEnterAccuracyFactor", "polygonExitAccuracyFactor", "polygonStillEnterAccuracyFactor", "polygonStillExitAccuracyFactor"]
        #expect(try decodedWithout(names, from: c) == .default)
        #expect(TransitionDetectorConfiguration.default.polygonEnterAccuracyFactor == 0.6)
        #expect(TransitionDetectorConfiguration.default.polygonExitAccuracyFactor == 1.0)
        #expect(TransitionDetectorConfiguration.default.polygonStillEnterAccuracyFactor == 0.3)
        #expect(TransitionDetectorConfiguration.default.polygonStillExitAccuracyFactor == 1.2)
    }

    @Test func aHoleIsOutside() throws {
        let origin = try LatLng(latitude: -33.87, longitude: 151.21)
        let square: [(Double, Double)] = [(0, 0), (0, 300), (300, 300), (300, 0)]
        let courtyard: [(Double, Double)] = [(100, 100), (200, 100), (200, 200), (100, 200)]
        let polygon = try Polygon(latLngRings: [
            square.map { Self.point(origin, $0.0, $0.1) }, courtyard.map { Self.point(origin, $0.0, $0.1) }
        ])
        let fence = try FenceOutlines.enclosingFence(id: 4, polygon: polygon)
        var d = try TransitionDetector(fences: [fence], outlines: FenceOutlines([(4, polygon)]))
        // Standing in the building, then walking into the courtyard's middle and staying.
        var fixes: [(Int32, Double, LatLng, Double)] = []
        for k in 0..<30 { fixes.append((7, Double(k) * 30, Self.point(origin, 50, 150 + Double(k % 2)), 4)) }
        for k in 0..<30 { fixes.append((7, 900 + Double(k) * 30, Self.point(origin, 50 + min(100, 10 * Double(k)), 150), 4)) }
        let events = Self.run(&d, fixes)
        // The first fix decides "inside" without an event; the courtyard is an exit.
        #expect(events.map(\.kind) == [.exit])
    }

    @Test func outlinesMustFitTheirFences() throws {
        let origin = try LatLng(latitude: 10, longitude: 179.999)  // across the antimeridian
        let polygon = try Polygon(latLngRings: Self.lShape(at: origin))
        let fence = try FenceOutlines.enclosingFence(id: 1, polygon: polygon)
        for v in polygon.vertices { #expect(fence.contains(v)) }
        #expect(fence.radiusMeters > 141 && fence.radiusMeters < 142)  // half the 200 m square's diagonal
        let small = try Fence(id: 1, center: fence.center, radiusMeters: 100)
        #expect(throws: GeofenceError.outlineOutsideFence(id: 1, vertex: 0)) {
            _ = try TransitionDetector(fences: [small], outlines: FenceOutlines([(1, polygon)]))
        }
        #expect(throws: GeofenceError.unknownFenceID(2)) {
            _ = try TransitionDetector(fences: [fence], outlines: FenceOutlines([(2, polygon)]))
        }
        #expect(throws: GeofenceError.duplicateFenceID(1)) { _ = try FenceOutlines([(1, polygon), (1, polygon)]) }
    }

    /// Noisy devices among concave polygons (and circles) at the pole, across the antimeridian
    /// and in a dense city: the detector, whatever it skips, gives the events of one that
    /// decides every fence on every fix from the polygon's signed boundary distance.
    @Test(arguments: [(90.0, 0.0), (0.1, 179.99), (40.7, -74.0)])
    func skippingGivesTheEventsOfADetectorThatDecidesEverything(_ at: (Double, Double)) throws {
        var rng = SplitMix64(seed: UInt64(abs(at.0 * 1000 + at.1)))
        let base = destination(from: try LatLng(latitude: at.0, longitude: at.1), bearing: 180, distance: 1_000)
        var fences: [Fence] = []
        var outlines: [(id: Int32, polygon: Polygon)] = []
        var polygons: [Int32: Polygon] = [:]
        for k in 0..<30 {
            let c = destination(from: base, bearing: rng.uniform(0, 360), distance: rng.uniform(0, 2_000))
            let id = Int32(k * 3 + 1)
            if k % 5 == 4 {
                fences.append(try Fence(id: id, center: c, radiusMeters: rng.uniform(50, 400)))
                continue
            }
            let n = 5 + Int(rng.next() % 8), size = rng.uniform(40, 400), turn = rng.uniform(0, 360)
            let ring = (0..<n).map { i in
                destination(from: c, bearing: turn + 360 * Double(i) / Double(n), distance: size * (1 - 0.6 * rng.nextUnit()))
            }
            let polygon = try Polygon(latLngRings: [ring])
            fences.append(try FenceOutlines.enclosingFence(id: id, polygon: polygon))
            outlines.append((id, polygon))
            polygons[id] = polygon
        }
        var fixes: [(Int32, Double, LatLng, Double)] = []
        for device in Int32(0)..<6 {
            var p = destination(from: base, bearing: rng.uniform(0, 360), distance: rng.uniform(0, 1_500))
            var t = 0.0, heading = rng.uniform(0, 360), speed = 1.4
            for k in 0..<400 {
                if k % 30 == 0 { speed = [0, 1.4, 1.4, 8][Int(rng.next() % 4)] }
                let dt = rng.uniform(10, 40)
                t += dt
                heading += rng.uniform(-30, 30)
                p = destination(from: p, bearing: heading, distance: speed * dt)
                let accuracy = [4, 8, 15, 30, 60][Int(rng.next() % 5)] * 1.0
                fixes.append((device, t, destination(from: p, bearing: rng.uniform(0, 360), distance: rng.uniform(0, accuracy)), accuracy))
            }
        }
        fixes.sort { ($0.1, $0.0) < ($1.1, $1.0) }
        let set = try FenceOutlines(outlines)
        // Still margins far from the moving ones: the neighborhoods must reach the widest.
        var wideStill = TransitionDetectorConfiguration.default
        wideStill.polygonStillEnterAccuracyFactor = 0
        wideStill.polygonStillExitAccuracyFactor = 3
        for config in [TransitionDetectorConfiguration.default, .hysteresis, wideStill] {
            // The reference: every fence, every accepted fix, c2 from the polygon's own measures.
            var expected: [TransitionEvent] = []
            var reference = try TransitionDetector(fences: fences, outlines: set, configuration: config)
            var entries: [Int32: [FenceEntry]] = [:]
            var last: [Int32: (UnitVector, Double)] = [:]
            reference.fenceIDs.withUnsafeBufferPointer { ids in
                for (device, t, q, accuracy) in fixes where accuracy <= config.maxAccuracyMeters {
                    let p = UnitVector(fastLatitude: q.latitude, longitude: q.longitude)
                    let speed = last[device].map { p.chord2(to: $0.0).squareRoot() * Earth.meanRadius / (t - $0.1) } ?? 0
                    last[device] = (p, t)
                    var held = entries[device] ?? (0..<ids.count).map { FenceEntry(slot: Int32($0), hasDwell: false, state: .unknown) }
                    let fix = FixContext(reference, device: device, at: p, time: t, accuracy: accuracy, speed: speed, odometer: 0)
                    let before = expected.count
                    for k in held.indices {
                        let g = reference.geometry[Int(held[k].slot)]
                        var c2 = p.chord2(to: g.center)
                        if let polygon = polygons[ids[Int(held[k].slot)]] {
                            let c = max(0, g.radiusChord + polygon.signedBoundaryDistanceMeters(to: p) / Earth.meanRadius)
                            c2 = c * c
                        }
                        _ = fix.decide(&held[k], g, c2: c2, fenceIDs: ids, into: &expected)
                    }
                    if expected.count - before > 1 { TransitionDetector.orderByFence(&expected, from: before) }
                    entries[device] = held
                }
            }
            #expect(expected.count >= 15, "\(at): \(expected.count) events")
            #expect(Set(expected.map(\.kind)) == [.enter, .exit])
            #expect(expected.contains { polygons[$0.fence] != nil } && expected.contains { polygons[$0.fence] == nil })
            var own = try TransitionDetector(fences: fences, outlines: set, configuration: config)
            #expect(Self.run(&own, fixes) == expected, "\(at), own grid")
            for slack in [30.0, 500, 3_000] {
                var c = config
                c.neighborhoodSlackMeters = slack
                var shared = try TransitionDetector(fences: fences, index: PackedRTree(fences), outlines: set, configuration: c)
                #expect(Self.run(&shared, fixes) == expected, "\(at), slack \(slack)")
            }
        }
    }
}
