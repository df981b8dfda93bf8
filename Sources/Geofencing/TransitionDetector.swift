#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Geodesy
import SpatialIndex

/// Turns each device's time-ordered GPS fixes into `enter`, `exit` and `dwell` events for a set
/// of circular and polygon fences (``FenceOutlines``), robust to GPS noise.
///
/// Defenses, in the order a fix meets them (settings in ``TransitionDetectorConfiguration``):
/// 1. Bad input is counted and skipped (``TransitionCounters``): NaN/out-of-range values,
///    a time earlier than (out of order) or equal to (duplicate) the device's last fix. After
///    ``outOfOrderRestart`` out-of-order fixes in a row the device's clock is taken to have
///    stepped back (one fix stamped in the future would otherwise silence it for good): the
///    next one restarts its time (``TransitionCounters/clockRestarts``).
/// 2. Accuracy gate: a fix reporting accuracy worse than `maxAccuracyMeters` changes nothing.
/// 3. Jump gate: a fix implausibly far from the last accepted one (speed bound plus both
///    accuracies) is rejected, up to `maxConsecutiveJumpRejections` in a row.
/// 4. Accuracy-aware hysteresis: a fix counts as inside only when `d < r - margin` and as
///    outside only when `d > r + margin`, `margin = h + f r + k a` (meters; `a` the accuracy).
/// 5. Confirmation: `enterConfirmations` / `exitConfirmations` consecutive decisive fixes, and
///    optionally `minimumDwellSeconds` of decisive inside fixes, before an entry counts.
///    Or, with `enterEvidence` / `exitEvidence` set (the defaults), evidence instead of steps
///    4-5 for that transition: each fix scores how far past the boundary it is in units of half
///    its accuracy, less a per-fix allowance (larger for a still device, slower than
///    `stillSpeedMetersPerSecond` since its previous fix, whose errors are correlated) and
///    capped for a device moving slower than `slowSpeedMetersPerSecond`, and the transition
///    fires when the accumulated score (a CUSUM) reaches the threshold, so a deep fix of a
///    moving device decides at once and a lone outlier is outweighed by the fixes around it
///    (``TransitionDetectorConfiguration/default``).
/// The first decisive state of a fence for a device sets the state without an event. A fence
/// with a dwell time emits `dwell` once the device has stayed inside that long since its entry
/// event. A trigger's `delaySeconds` is not applied here: it is the caller's scheduling.
///
/// Sparse state: each device keeps entries only for fences whose boundary band passes within
/// `neighborhoodSlackMeters` of the point where it last asked the index (its anchor), plus the
/// fences it is inside; every other fence is, provably, decisively outside for any fix within
/// the slack. The index (`forEachWithin(meters: maxRadius + maxMargin + slack)`) is asked again
/// when a fix is more than `neighborhoodSlackMeters` from the anchor, so the slack trades
/// index queries for entries held and never changes an event. The new anchor is that fix, or,
/// when its step from the previous accepted fix is over a tenth of the slack, the point 0.8
/// of the slack further along that step (to within a meter): a device keeping its heading then
/// travels 1.8 slacks before its next query instead of one, and one that turns back still has
/// a fifth of a slack (the anchor stays within the slack of the fix, so the fix is covered).
///
/// Invariant that makes skipping safe: for every device and every entry it holds, either the
/// entry's due reading is at most the device's odometer (the next fix looks at it), or the
/// device's path since the entry was last looked at is shorter than the entry's clearance
/// then, so no fix since could have changed it; and every fence it does not hold is
/// decisively outside for every fix within the slack of its anchor. Each fix either keeps
/// both (moving less than the slack from the anchor, adding its step to the odometer and
/// looking at every entry whose due reading the odometer has reached) or re-establishes them
/// (a refresh or a rebase looks at every entry kept). A detector that decided every fence on
/// every fix gives the same events (`SkippingEquivalenceTests`).
///
/// Visiting: a fix looks only at the entries it could change. Each device has an odometer (the
/// path length of its accepted fixes since the last refresh, in quanta of 1/65,534 of four
/// times the slack, rounded up at every step); each entry a due reading, set whenever it is
/// looked at to the odometer plus the entry's clearance, rounded down. The clearance of a
/// settled entry is how far the device must travel to be past the boundary, on the side
/// opposite the entry's state, by more than the band: nearer fixes cannot change it (the
/// invariant of the per-entry decision), so a look at an entry with clearance left only
/// re-arms it. A device cannot have moved further than it has traveled, so an entry whose due
/// reading is ahead of the odometer cannot change. The due readings are kept apart from the
/// entries, contiguous per device, and tested eight at a time; the device keeps the least of
/// them, so a fix whose odometer is below it costs one comparison past the track update.
/// When the odometer fills up without a refresh (a device jittering in place), every entry is
/// looked at again and the odometer restarts (a rebase: no index query).
///
/// Memory: 56 bytes per device plus 8 in the id tables, and 18 per fence entry (16 for the
/// entry, 2 for its due reading) in one shared pool of blocks of 2^k entries, compacted when a
/// third is free: 10 million devices holding two fences each take 1,000 MB
/// (`geofence-bench state`). A device holds at most 2^20 entries: the initializers refuse
/// fences of which more could be within reach of one point
/// (``GeofenceError/capacityExceeded(what:found:limit:)``).
///
/// Memory traffic: a look reads its fence's geometry from one 64-byte line (a 32-byte record
/// per fence, 64-byte aligned), and the fences a refresh is about to look at are requested
/// together first (prefetch hints), so their cache misses overlap.
///
/// Distances near a boundary are compared as chords on the unit sphere: a margin of `m` meters
/// is `m / R` in chord units (R = 6,371,008.8 m), exact to about 1e-6 of the margin for
/// fences under 50 km.
///
/// Per-device state is a value: ``snapshot(device:)`` and ``restore(_:)`` move it between
/// detectors built on the same fences and configuration with identical results.
public struct TransitionDetector {
    /// The settings this detector runs with.
    public let configuration: TransitionDetectorConfiguration
    /// What happened to the input so far.
    public internal(set) var counters = TransitionCounters()

    /// ``configuration``'s per-fix decision settings.
    @usableFromInline let rules: DecisionRules
    /// Fence ids by dense slot (slots are in the Z-order of the centers).
    @usableFromInline let fenceIDs: [Int32]
    /// Fence geometry by dense slot: a 32-byte record per fence in 64-byte aligned storage and
    /// a small table of shapes (a visit reads one cache line per fence).
    @usableFromInline let geometryTable: FenceGeometryTable
    /// ``geometryTable``'s records and shapes, read without reference counting.
    @usableFromInline let geometry: GeometryView
    @usableFromInline let slotOfID: [Int32: Int32]
    /// The neighborhood query through a shared index: the fences within `meters` of a point
    /// given as a unit vector and as latitude and longitude in degrees. Captured once at init for
    /// the concrete index type (calling through a stored existential would copy it, retaining
    /// its arrays, per query). Unused when the detector has its own ``neighborhoodGrid``.
    @usableFromInline var queryWithin: (Double, UnitVector, Double, Double, (Int32) -> Void) -> Void
    /// The detector's own index, when it has one: the fences enlarged by their largest margin
    /// plus the slack, with slots for ids, asked directly (no closure per fence reported).
    @usableFromInline var neighborhoodGrid: LatLngGridIndex?
    /// Radius of a neighborhood query, meters.
    @usableFromInline let queryRadiusMeters: Double
    /// Squared chord of `neighborhoodSlackMeters`.
    @usableFromInline let slackChord2: Double
    /// `neighborhoodSlackMeters / R` + 1 m: the slack in chord units with room for the anchor's
    /// rounding.
    @usableFromInline let slackChord: Double
    /// `accuracyFactor / R`: chord units per meter of accuracy.
    @usableFromInline let accuracyChordPerMeter: Double

    /// Fence slot by id when ids are dense enough for a table (-1 = unknown id); else empty.
    @usableFromInline let slotTable: [Int32]
    /// Odometer quantum: `4 * neighborhoodSlackMeters / R / 65,534` (chord units): a device
    /// jittering in place rebases after four slacks of path.
    @usableFromInline let odometerQuantum: Double
    /// One over ``odometerQuantum``. Settable within the module so a test can make every step
    /// overflow the odometer: every fix then rebases, which looks at every entry held (a
    /// detector that never skips, for comparison).
    @usableFromInline var inverseQuantum: Double
    /// How far ahead of a moving device a refresh places its new anchor: 0.8 of the slack, in
    /// chord units.
    @usableFromInline let leadChord: Double
    /// The shortest step from the previous accepted fix that gives a refresh a direction to
    /// lead in: a tenth of the slack, in chord units.
    @usableFromInline let leadMinimumStep: Double

    /// The devices' tracks by track slot (``tracks``); nil only while `process` works on one
    /// in place (moved out and back, which costs no reference counting).
    @usableFromInline var heldTracks: [DeviceTrack]? = []
    /// The devices' tracks by track slot.
    @inlinable var tracks: [DeviceTrack] {
        get { heldTracks! }
        set { heldTracks = newValue }
        _modify { yield &heldTracks! }
    }
    /// Device id by track slot (first-seen order).
    @usableFromInline var deviceOfTrack: [Int32] = []
    /// The fence entries of every track.
    @usableFromInline var pool = EntryPool()
    /// Track slot by device id for ids in `0..<trackOfSmallDevice.count` (-1 = none); grown on
    /// demand while ids stay below ``denseDeviceLimit``.
    @usableFromInline var trackOfSmallDevice: [Int32] = []
    /// Track slot for every other device id.
    @usableFromInline var trackOfDevice: [Int32: Int32] = [:]
    @usableFromInline var scratch: [Int32] = []
    /// Per fence slot: position of the slot in the entry list being refreshed, or -1.
    /// All -1 between refreshes.
    @usableFromInline var mark: [Int32]
    /// Spare entry storage a refresh builds the new entry list in (keeps its capacity).
    @usableFromInline var spareEntries: [FenceEntry] = []
    /// Spare storage for the new entries' due readings, beside ``spareEntries``.
    @usableFromInline var spareDues: [UInt16] = []
    /// Devices in a run of out-of-order fixes: the device's last time when the run began (an
    /// in-order fix since would have raised it, ending the run) and the run's length. Read and
    /// written only on the out-of-order path; cleared when it holds ``outOfOrderRunTableLimit``.
    @usableFromInline var outOfOrderRuns: [Int32: (lastTime: Double, count: Int)] = [:]

    /// Consecutive out-of-order fixes after which a device's clock is taken to have stepped
    /// back: the next one restarts its time (counted in ``TransitionCounters/clockRestarts``).
    public static var outOfOrderRestart: Int { 3 }
    /// Most devices whose out-of-order runs are followed at once (bounded memory under hostile
    /// input; past it the runs start counting again).
    @usableFromInline static var outOfOrderRunTableLimit: Int { 4_096 }

    /// Device ids below this always use the table; above it, ids below four times the devices
    /// seen do (so a fleet with dense ids never needs the dictionary, and one large id cannot
    /// make a large table).
    @usableFromInline static var denseDeviceLimit: Int { 1 << 20 }

    /// The odometer reading that forces a rebase (the quantum is 1/65,534 of the slack).
    @usableFromInline static var odometerLimit: Int { 65_534 }

    /// A detector over `fences`, with `index` holding exactly the same fences (same ids), used to
    /// find the fences near a device. `dwellSeconds` gives a dwell time per fence id. `outlines`
    /// makes fences polygons: such a fence is decided on the signed distance from the fix to its
    /// polygon's boundary (negative inside) where a circle uses the distance to its center less
    /// its radius, always by the hysteresis rule with its own accuracy margins
    /// (``TransitionDetectorConfiguration/polygonEnterAccuracyFactor``,
    /// ``TransitionDetectorConfiguration/polygonExitAccuracyFactor``; for a still fix
    /// ``TransitionDetectorConfiguration/polygonStillEnterAccuracyFactor``,
    /// ``TransitionDetectorConfiguration/polygonStillExitAccuracyFactor``) and the same band,
    /// confirmations and gates; its circle, which must
    /// contain the polygon, is what the neighborhood queries find it by and what scales its
    /// band (`hysteresisRadiusFraction`).
    /// - Throws: ``GeofenceError`` for an invalid setting, duplicate fence ids, an index of a
    ///   different size, a dwell or an outline for an unknown fence id, a negative/NaN dwell, or
    ///   an outline outside its fence's circle.
    public init(
        fences: [Fence], index: some FenceIndex, dwellSeconds: [Int32: Double] = [:],
        outlines: FenceOutlines = FenceOutlines(), configuration: TransitionDetectorConfiguration = .default
    ) throws(GeofenceError) {
        guard index.count == fences.count else { throw .indexMismatch(fences: fences.count, indexed: index.count) }
        try self.init(validating: fences, dwellSeconds: dwellSeconds, outlines: outlines, configuration: configuration)
        if fences.count > 1 << Int(EntryPool.maxClass) {
            let extra =
                configuration.largestAccuracyFactor(polygons: !outlines.isEmpty) * configuration.maxAccuracyMeters
                + configuration.neighborhoodSlackMeters + 2
            let band = { (f: Fence) in configuration.hysteresisMeters + configuration.hysteresisRadiusFraction * f.radiusMeters }
            var enlarged: [Fence] = []
            for f in fences {
                let radius = f.radiusMeters + band(f) + extra
                do {
                    enlarged.append(try Fence(id: f.id, center: f.center, radiusMeters: radius))
                } catch {
                    throw .invalidSetting(field: "neighborhood radius of fence \(f.id)", value: radius)
                }
            }
            try Self.checkEntryCapacity(enlarged)
        }
        self.queryWithin = { meters, p, _, _, body in index.forEachWithin(meters: meters, of: p, body) }
    }

    /// A detector over `fences` with its own index: a `LatLngGridIndex` of the fences enlarged
    /// by their largest margin plus the slack, keyed by slot, asked with `forEachContaining` in
    /// degrees. With tiers of very different radii this returns fewer fences per refresh than a
    /// `forEachWithin` query, which must reach `maxRadius + margin + slack` around the device
    /// for every fence (the faster choice when no index is shared; figures in docs/DETECTOR.md).
    /// - Throws: as ``init(fences:index:dwellSeconds:outlines:configuration:)``, and
    ///   ``GeofenceError/invalidSetting(field:value:)`` when a fence's radius plus its margins
    ///   and the slack is not a finite number of meters (settings valid alone but too large together).
    public init(
        fences: [Fence], dwellSeconds: [Int32: Double] = [:], outlines: FenceOutlines = FenceOutlines(),
        configuration: TransitionDetectorConfiguration = .default
    ) throws(GeofenceError) {
        try self.init(validating: fences, dwellSeconds: dwellSeconds, outlines: outlines, configuration: configuration)
        let extra =
            configuration.largestAccuracyFactor(polygons: !outlines.isEmpty) * configuration.maxAccuracyMeters
            + configuration.neighborhoodSlackMeters + 2
        var enlarged: [Fence] = []
        enlarged.reserveCapacity(fences.count)
        for f in fences {
            let band = configuration.hysteresisMeters + configuration.hysteresisRadiusFraction * f.radiusMeters
            let radius = f.radiusMeters + band + extra
            do {
                enlarged.append(try Fence(id: slotOfID[f.id]!, center: f.center, radiusMeters: radius))
            } catch {
                throw .invalidSetting(field: "neighborhood radius of fence \(f.id)", value: radius)
            }
        }
        try Self.checkEntryCapacity(enlarged)
        do {
            self.neighborhoodGrid = try LatLngGridIndex(enlarged)
        } catch {
            switch error {
            case let .tooManyFences(count, limit), let .tooManyGroups(count, limit):
                throw .capacityExceeded(what: "fences (in the neighborhood grid)", found: count, limit: limit)
            case .invalidCellsPerRadius(let value):
                throw .invalidSetting(field: "cellsPerRadius", value: value)
            }
        }
    }

    /// Refuses fences of which more than ``EntryPool``'s 2^20 (the entries one device can hold)
    /// could be within reach of one point: `enlarged` are the fences grown by their margins and
    /// the slack, and a point inside k of them is within `r_i + r_max` of the center of each.
    /// Free below 2^20 fences; above, one `forEachWithin` query per fence (stopping at the first
    /// fence with too many neighbors).
    /// - Throws: ``GeofenceError/capacityExceeded(what:found:limit:)``.
    static func checkEntryCapacity(_ enlarged: [Fence]) throws(GeofenceError) {
        let limit = 1 << Int(EntryPool.maxClass)
        guard enlarged.count > limit else { return }
        let tree = PackedRTree(enlarged)
        let largest = enlarged.map(\.radiusMeters).max() ?? 0
        for f in enlarged {
            var near = 0
            tree.forEachWithin(meters: f.radiusMeters + largest, of: f.centerVector) { _ in near += 1 }
            if near > limit {
                throw .capacityExceeded(what: "fences within reach of one point (entries of one device)", found: near, limit: limit)
            }
        }
    }

    /// Everything but the index query.
    init(
        validating fences: [Fence], dwellSeconds: [Int32: Double], outlines: FenceOutlines,
        configuration: TransitionDetectorConfiguration
    ) throws(GeofenceError) {
        try configuration.validate()
        self.configuration = configuration
        self.rules = DecisionRules(configuration)
        self.queryWithin = { _, _, _, _, _ in }
        var slots: [Int32: Int32] = [:]
        slots.reserveCapacity(fences.count)
        var maxRadius = 0.0, maxBand = 0.0
        var ids: [Int32] = [], geometry: [FenceGeometry] = []
        ids.reserveCapacity(fences.count)
        geometry.reserveCapacity(fences.count)
        for f in fences {
            guard slots.updateValue(0, forKey: f.id) == nil else { throw .duplicateFenceID(f.id) }
        }
        // Polygon fences: the outline replaces the circle in the decisions (``GeometryView/chord2(_:_:)``);
        // the circle, which must contain it, stays the fence's key in the neighborhood queries.
        var outlineOfID: [Int32: UInt32] = [:]
        for (k, id) in outlines.ids.enumerated() {
            guard slots[id] != nil else { throw .unknownFenceID(id) }
            outlineOfID[id] = UInt32(k + 1)
        }
        for f in fences where outlineOfID[f.id] != nil {
            if let v = outlines.vertexOutside(f) { throw .outlineOutsideFence(id: f.id, vertex: v) }
        }
        // Slots in Z-order of the centers: a device's nearby fences sit close together in
        // `geometry`, so the scan reads few cache lines.
        for k in Self.spatialOrder(fences) {
            let f = fences[k]
            slots[f.id] = Int32(ids.count)
            ids.append(f.id)
            let band = configuration.hysteresisMeters + configuration.hysteresisRadiusFraction * f.radiusMeters
            geometry.append(
                FenceGeometry(
                    center: f.centerVector, radiusChord: f.chord2.squareRoot(),
                    band: band / Earth.meanRadius, dwellSeconds: .infinity, outline: outlineOfID[f.id] ?? 0))
            maxRadius = Swift.max(maxRadius, f.radiusMeters)
            maxBand = Swift.max(maxBand, band)
        }
        for (id, seconds) in dwellSeconds {
            guard let slot = slots[id] else { throw .unknownFenceID(id) }
            guard seconds.isFinite, seconds >= 0 else { throw .invalidDwell(seconds) }
            geometry[Int(slot)].dwellSeconds = seconds
        }
        self.fenceIDs = ids
        self.geometryTable = FenceGeometryTable(
            geometry, outlines: outlines.polygons, rules: rules, polygonRules: PolygonRules(configuration),
            ids: ids)
        self.geometry = geometryTable.view
        self.slotOfID = slots
        // A direct table when the largest id is under 4x the fence count + 1024 (at most 16 B per fence).
        let maxID = ids.max() ?? -1
        if Int(maxID) < 4 * ids.count + 1024 {
            var table = [Int32](repeating: -1, count: Int(maxID) + 1)
            for (k, id) in ids.enumerated() { table[Int(id)] = Int32(k) }
            self.slotTable = table
        } else {
            self.slotTable = []
        }
        self.mark = [Int32](repeating: -1, count: fences.count)
        // Every fence further than this from the query point is decisively outside for any fix
        // within the slack of the anchor; + 1 m covers the chord linearisation and + 1 m the
        // anchor's rounding to single precision (under 0.7 m).
        let maxMargin = maxBand + configuration.largestAccuracyFactor(polygons: !outlines.isEmpty) * configuration.maxAccuracyMeters
        self.queryRadiusMeters = maxRadius + maxMargin + configuration.neighborhoodSlackMeters + 2
        self.odometerQuantum = 4 * configuration.neighborhoodSlackMeters / Earth.meanRadius / Double(Self.odometerLimit)
        self.inverseQuantum = 1 / odometerQuantum
        self.leadChord = 0.8 * configuration.neighborhoodSlackMeters / Earth.meanRadius
        self.leadMinimumStep = 0.1 * configuration.neighborhoodSlackMeters / Earth.meanRadius
        self.slackChord2 = Fence.chord2(forRadiusMeters: configuration.neighborhoodSlackMeters)
        self.accuracyChordPerMeter = configuration.accuracyFactor / Earth.meanRadius
        self.slackChord = (configuration.neighborhoodSlackMeters + 1) / Earth.meanRadius
    }

    /// A detector over task fences, with its own index (as
    /// ``init(fences:dwellSeconds:outlines:configuration:)``); `.postArrivalDwell` fences
    /// (any fence with `dwellSeconds`) get dwell events.
    /// - Throws: as ``init(fences:index:dwellSeconds:outlines:configuration:)``.
    public init(geofences: [Geofence], configuration: TransitionDetectorConfiguration = .default) throws(GeofenceError) {
        let fences = geofences.map(\.fence)
        var dwell: [Int32: Double] = [:]
        for g in geofences { if let d = g.dwellSeconds { dwell[g.id] = d } }
        try self.init(fences: fences, dwellSeconds: dwell, configuration: configuration)
    }

    /// Number of devices seen.
    public var deviceCount: Int { tracks.count }

    /// Total per-device fence entries held (the sparse state's size).
    public var stateEntryCount: Int { tracks.reduce(0) { $0 + $1.entryCount } }

    /// Feeds one fix of `device`: `time` in seconds, position in degrees, `accuracy` the reported
    /// horizontal accuracy in meters. Appends the events it decides to `events`.
    /// Fixes of one device must come in time order; fixes of different devices may interleave.
    public mutating func process(
        device: Int32, time: Double, latitude: Double, longitude: Double,
        accuracy: Double, into events: inout [TransitionEvent]
    ) {
        counters.fixes &+= 1
        // (A NaN or infinite latitude or longitude fails its range test.)
        guard abs(latitude) <= 90, abs(longitude) <= 180, accuracy >= 0, time.isFinite else {
            counters.invalid += 1
            return
        }
        let slot = Int(trackSlot(device))
        let before = events.count
        let looked = acceptInPlace(
            slot: slot, device: device, time: time, latitude: latitude, longitude: longitude, accuracy: accuracy,
            into: &events)
        if looked {
            if pool.isSparse { pool.compact(&heldTracks!) }
            if events.count - before > 1 { Self.orderByFence(&events, from: before) }
        }
    }

    /// ``accept(_:device:time:latitude:longitude:accuracy:into:)`` on the track in slot `slot`
    /// where it lives, not on a copy of its 56 bytes: the tracks array is moved out of `self`
    /// for the call (``heldTracks`` nil: nothing `accept` calls reads or appends to ``tracks``),
    /// made unique once, and the pointer into it is used only inside the closure. (Not named
    /// `process`: the instruction count toggles on functions matching `*process*`.)
    @inline(__always) @usableFromInline
    mutating func acceptInPlace(
        slot: Int, device: Int32, time: Double, latitude: Double, longitude: Double, accuracy: Double,
        into events: inout [TransitionEvent]
    ) -> Bool {
        guard var held = heldTracks.take() else { preconditionFailure("the tracks are held by another call") }
        let looked = held.withUnsafeMutableBufferPointer { held in
            precondition(slot < held.count)
            return accept(
                &held[slot], device: device, time: time, latitude: latitude, longitude: longitude, accuracy: accuracy,
                into: &events)
        }
        heldTracks = consume held
        return looked
    }

    /// ``process(device:time:latitude:longitude:accuracy:into:)`` on the device's track `t`
    /// (with ``tracks`` moved out of `self`: not to be read here): returns whether entries were
    /// looked at (then the pool may need compacting, or the events ordering).
    @inline(__always) @usableFromInline
    mutating func accept(
        _ t: inout DeviceTrack, device: Int32, time: Double, latitude: Double, longitude: Double,
        accuracy: Double, into events: inout [TransitionEvent]
    ) -> Bool {
        if time < t.lastTime
            && !Self.restartsClock(
                &t, device: device, time: time, runs: &outOfOrderRuns, counters: &counters,
                jumpLimit: configuration.maxConsecutiveJumpRejections)
        {
            return false
        }
        if time == t.lastTime {
            counters.duplicates += 1
            return false
        }
        t.lastTime = time
        guard accuracy <= configuration.maxAccuracyMeters else {
            counters.inaccurate += 1
            return false
        }
        // The quick libm-free path (within 1e-15 chord of the S2-exact one, half the operations
        // of `fastLatitude`).
        let p = UnitVector(quickLatitude: latitude, longitude: longitude)
        let hadFix = t.hasFix
        var step = Double.infinity
        var speed = 0.0  // m/s from the last accepted fix; 0 on the device's first
        // The fix less the anchor: its squared length is the chord to the anchor, less the
        // stored offset it is the step from the previous fix, and it is the new offset unless
        // a refresh moves the anchor.
        let anchor = t.anchor
        let dx = p.x - anchor.x, dy = p.y - anchor.y, dz = p.z - anchor.z
        if hadFix {
            let seconds = time - t.fixTime
            let allowed =
                configuration.maxSpeedMetersPerSecond * seconds
                + configuration.jumpAccuracyFactor * (accuracy + Double(t.fixAccuracy)) + configuration.jumpSlackMeters
            let ex = dx - Double(t.offsetX), ey = dy - Double(t.offsetY), ez = dz - Double(t.offsetZ)
            step = (ex * ex + ey * ey + ez * ez).squareRoot()
            let meters = step * Earth.meanRadius
            if meters > allowed && t.rejections < configuration.maxConsecutiveJumpRejections {
                t.rejections += 1
                counters.jumps += 1
                return false
            }
            speed = meters / seconds
        }
        counters.accepted &+= 1
        var looked = true
        if !hadFix || dx * dx + dy * dy + dz * dz > slackChord2 {
            refreshNeighborhood(
                &t, device: device, at: p, latitude: latitude, longitude: longitude, time: time,
                accuracy: accuracy, speed: speed, known: hadFix,
                previous: hadFix && step > leadMinimumStep ? t.fix : nil, step: step, into: &events)
            t.setFix(p)
        } else {
            t.setOffset(dx, dy, dz)
            // The step, quantised upwards, plus a millimeter for the stored fix's rounding.
            let quanta = (step + 1e-3 / Earth.meanRadius) * inverseQuantum
            // The new reading, `odometer + ⌊quanta⌋ + 1`, is past the limit exactly when
            // `quanta >= limit - odometer` (an integer): compared before any conversion.
            if quanta >= Double(Self.odometerLimit &- Int(t.odometer)) {
                // A rebase: every entry looked at again from here, no index query.
                let fix = FixContext(self, device: device, at: p, time: time, accuracy: accuracy, speed: speed, odometer: 0)
                rebuild(&t, found: [][...], keepAll: true, newState: .outside, fix: fix, into: &events)
            } else {
                let odometer = Int(t.odometer) &+ Int(quanta) &+ 1
                t.odometer = UInt16(truncatingIfNeeded: odometer)
                if Int(t.minimumDue) <= odometer {
                    update(&t, device: device, at: p, time: time, accuracy: accuracy, speed: speed, into: &events)
                } else {
                    looked = false
                }
            }
        }
        t.fixTime = time
        t.fixAccuracy = Float(accuracy)
        t.rejections = 0
        return looked
    }

    /// An out-of-order fix of `device` at `time` on track `t`: counted as out of order (returns
    /// false), unless it ends a run of more than ``outOfOrderRestart`` in a row. Then the
    /// device's clock stepped back (one fix stamped in the future, or a clock corrected after
    /// running ahead, would leave every later fix out of order) and this fix restarts its time
    /// (returns true, the fix goes on as any other): the elapsed time since its last accepted
    /// fix is unknown, taken as one second, and the jump gate lets the fix through; entries
    /// keep their states. Not inlined: an in-order fix never comes here.
    /// (`runs`: ``outOfOrderRuns``; `jumpLimit`: the configuration's jump rejections.)
    @inline(never) @usableFromInline
    static func restartsClock(
        _ t: inout DeviceTrack, device: Int32, time: Double, runs: inout [Int32: (lastTime: Double, count: Int)],
        counters: inout TransitionCounters, jumpLimit: Int
    ) -> Bool {
        var count = 1
        if let run = runs[device], run.lastTime == t.lastTime { count = run.count + 1 }
        guard count > outOfOrderRestart else {
            if runs.count >= outOfOrderRunTableLimit { runs.removeAll() }
            runs[device] = (t.lastTime, count)
            counters.outOfOrder += 1
            return false
        }
        runs[device] = nil
        counters.clockRestarts += 1
        t.lastTime = -.infinity
        t.fixTime = time - 1
        t.rejections = jumpLimit
        return true
    }

    /// Puts `events[from...]` (one fix's events, a handful) in fence-id order, kinds in raw
    /// order within a fence, whatever the order of the entries that produced them: an insertion
    /// sort, O(n^2) for the n events of one fix.
    @inline(__always) @usableFromInline
    static func orderByFence(_ events: inout [TransitionEvent], from: Int) {
        events.withUnsafeMutableBufferPointer { e in
            for i in (from + 1)..<e.count {
                let x = e[i]
                var j = i
                while j > from && (e[j - 1].fence > x.fence || (e[j - 1].fence == x.fence && e[j - 1].kind.rawValue > x.kind.rawValue)) {
                    e[j] = e[j - 1]
                    j -= 1
                }
                e[j] = x
            }
        }
    }

    /// Indices of `fences` sorted by the Z-order (bit-interleaved 16-bit latitude and
    /// longitude) of their centers, ties by index. O(n log n).
    static func spatialOrder(_ fences: [Fence]) -> [Int] {
        func spread(_ v: UInt32) -> UInt32 {
            var x = v & 0xFFFF
            x = (x | x << 8) & 0x00FF_00FF
            x = (x | x << 4) & 0x0F0F_0F0F
            x = (x | x << 2) & 0x3333_3333
            x = (x | x << 1) & 0x5555_5555
            return x
        }
        let keys = fences.map { f -> UInt32 in
            let lat = UInt32(Swift.min(65_535, Swift.max(0, (f.center.latitude + 90) / 180 * 65_536)))
            let lng = UInt32(Swift.min(65_535, Swift.max(0, (f.center.longitude + 180) / 360 * 65_536)))
            return spread(lat) << 1 | spread(lng)
        }
        return fences.indices.sorted { keys[$0] < keys[$1] || (keys[$0] == keys[$1] && $0 < $1) }
    }

    /// The slot of `device`'s track, created on first sight.
    @inline(__always) @usableFromInline
    mutating func trackSlot(_ device: Int32) -> Int32 {
        let d = Int(device)
        if d >= 0 && d < trackOfSmallDevice.count {
            let s = trackOfSmallDevice[d]
            if s >= 0 { return s }
        }
        return newOrLargeTrackSlot(device)
    }

    /// ``trackSlot(_:)`` for a device not in the dense table: from the dictionary, or a new track.
    @usableFromInline
    mutating func newOrLargeTrackSlot(_ device: Int32) -> Int32 {
        let d = Int(device)
        if !trackOfDevice.isEmpty, let s = trackOfDevice[device] { return s }
        let s = Int32(tracks.count)
        tracks.append(DeviceTrack())
        deviceOfTrack.append(device)
        if d >= 0 && (d < Self.denseDeviceLimit || d < 4 * tracks.count) {
            if d >= trackOfSmallDevice.count {
                // Grow geometrically, so a stream of rising ids costs amortised O(1).
                let size = Swift.max(d + 1, Swift.min(2 * trackOfSmallDevice.count, Swift.max(Self.denseDeviceLimit, 4 * tracks.count)), 1024)
                trackOfSmallDevice.append(contentsOf: repeatElement(-1, count: size - trackOfSmallDevice.count))
            }
            trackOfSmallDevice[d] = s
        } else {
            trackOfDevice[device] = s
        }
        return s
    }

    /// The slot of `device`'s track, or nil if never seen.
    func existingTrackSlot(_ device: Int32) -> Int32? {
        let d = Int(device)
        if d >= 0 && d < trackOfSmallDevice.count && trackOfSmallDevice[d] >= 0 { return trackOfSmallDevice[d] }
        return trackOfDevice[device]
    }
}
