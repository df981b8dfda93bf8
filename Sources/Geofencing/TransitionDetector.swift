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
/// of circular fences, robust to GPS noise.
///
/// Defences, in the order a fix meets them (settings in ``TransitionDetectorConfiguration``):
/// 1. Bad input is counted and skipped (``TransitionCounters``): NaN/out-of-range values,
///    a time earlier than (out of order) or equal to (duplicate) the device's last fix.
/// 2. Accuracy gate: a fix reporting accuracy worse than `maxAccuracyMeters` changes nothing.
/// 3. Jump gate: a fix implausibly far from the last accepted one (speed bound plus both
///    accuracies) is rejected, up to `maxConsecutiveJumpRejections` in a row.
/// 4. Accuracy-aware hysteresis: a fix counts as inside only when `d < r - margin` and as
///    outside only when `d > r + margin`, `margin = h + f r + k a` (metres; `a` the accuracy).
/// 5. Confirmation: `enterConfirmations` / `exitConfirmations` consecutive decisive fixes, and
///    optionally `minimumDwellSeconds` of decisive inside fixes, before an entry counts.
///    Or, with `enterEvidence` / `exitEvidence` set (the defaults), evidence instead of steps
///    4-5 for that transition: each fix scores how far past the boundary it is in units of half
///    its accuracy, capped for a device moving slower than `slowSpeedMetersPerSecond` since
///    its previous fix, and the transition fires when the accumulated score (a CUSUM) reaches
///    the threshold, so a deep fix of a moving device decides at once and a lone outlier is
///    outweighed by the fixes around it (``TransitionDetectorConfiguration/default``).
/// The first decisive state of a fence for a device sets the state without an event. A fence
/// with a dwell time emits `dwell` once the device has stayed inside that long since its entry
/// event. A trigger's `delaySeconds` is not applied here: it is the caller's scheduling.
///
/// Sparse state: each device keeps entries only for fences whose boundary band passes within
/// `neighborhoodSlackMeters` of the point where it last asked the index, plus the fences it is
/// inside; every other fence is, provably, decisively outside for any fix within the slack.
/// The index (`forEachWithin(meters: maxRadius + maxMargin + slack)`) is asked again when the
/// device has moved `neighborhoodSlackMeters` from that point, so the slack trades index
/// queries for entries held and never changes an event. A fix visits only the entries whose
/// decision band it could have reached (a prefix of the entries ordered by horizon; see
/// `rank` in TransitionDetector+Neighborhood.swift), so a device standing still costs almost nothing per fix.
///
/// Distances near a boundary are compared as chords on the unit sphere: a margin of `m` metres
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
    /// Fence ids by dense slot.
    @usableFromInline let fenceIDs: [Int32]
    /// Whether `fenceIDs[k] == k` for every slot (ids 0..<n in order): an event then names its
    /// fence without a lookup (a likely cache miss per event).
    @usableFromInline let slotsAreIDs: Bool
    /// Fence geometry by dense slot, one 48-byte record each (a refresh reads one cache line
    /// per fence instead of four scattered arrays).
    @usableFromInline let geometry: [FenceGeometry]
    @usableFromInline let slotOfID: [Int32: Int32]
    /// `index.forEachWithin(meters:of:_:)`, captured once at init for the concrete index type
    /// (calling through a stored existential would copy it, retaining its arrays, per query).
    @usableFromInline var queryWithin: (Double, UnitVector, (Int32) -> Void) -> Void
    /// Radius of a neighbourhood query, metres.
    @usableFromInline let queryRadiusMeters: Double
    /// Squared chord of `neighborhoodSlackMeters`.
    @usableFromInline let slackChord2: Double
    /// `neighborhoodSlackMeters / R` + 1 m: the slack in chord units, rounded up.
    @usableFromInline let slackChord: Double
    /// `accuracyFactor * maxAccuracyMeters / R`: the largest accuracy part of a margin.
    @usableFromInline let maxAccuracyChord: Double
    /// `accuracyFactor / R`: chord units per metre of accuracy.
    @usableFromInline let accuracyChordPerMeter: Double

    /// Fence slot by id when ids are dense enough for a table (-1 = unknown id); else empty.
    @usableFromInline let slotTable: [Int32]

    @usableFromInline var tracks: [DeviceTrack] = []
    /// Track slot by device id for ids in `0..<smallDeviceLimit` (-1 = none); grown on demand.
    @usableFromInline var trackOfSmallDevice: [Int32] = []
    /// Track slot for every other device id.
    @usableFromInline var trackOfDevice: [Int32: Int32] = [:]
    @usableFromInline var scratch: [Int32] = []
    /// Per fence slot: position of the slot in the entry list being refreshed, or -1.
    /// All -1 between refreshes.
    @usableFromInline var mark: [Int32]
    /// Horizon bucket of each kept entry of a refresh (see ``horizonBuckets``).
    @usableFromInline var bucketOf: [UInt8] = []
    /// Spare entry storage swapped in by a neighbourhood refresh (keeps its capacity).
    @usableFromInline var spareEntries: [FenceEntry] = []

    /// A refresh orders entries by horizon with a counting sort into this many buckets: bucket 0
    /// holds the always-visited entries (horizon -1), bucket `1 + k` the horizons in
    /// `[k w, (k + 1) w)` with `w = slack / 62`, each stored rounded down to `k w` (about 48 m at
    /// the default slack), and the last bucket everything from `62 w` (never reached before the
    /// next refresh). Rounding a horizon down only makes a fix visit an entry a little earlier,
    /// which cannot change an event (a visit before the horizon finds nothing to change).
    @usableFromInline static var horizonBuckets: Int { 64 }

    /// Device ids below this use a table instead of a dictionary (4 MB at most: 1 Mi Int32 slots).
    @usableFromInline static var smallDeviceLimit: Int32 { 1 << 20 }

    /// A detector over `fences`, with `index` holding exactly the same fences (same ids), used to
    /// find the fences near a device. `dwellSeconds` gives a dwell time per fence id.
    /// - Throws: ``GeofenceError`` for an invalid setting, duplicate fence ids, an index of a
    ///   different size, a dwell for an unknown fence id or a negative/NaN dwell.
    public init(fences: [Fence], index: some FenceIndex, dwellSeconds: [Int32: Double] = [:],
                configuration: TransitionDetectorConfiguration = .default) throws(GeofenceError) {
        guard index.count == fences.count else { throw .indexMismatch(fences: fences.count, indexed: index.count) }
        try self.init(validating: fences, dwellSeconds: dwellSeconds, configuration: configuration)
        self.queryWithin = { meters, p, body in index.forEachWithin(meters: meters, of: p, body) }
    }

    /// A detector over `fences` with its own index: a ``PackedRTree`` of the fences enlarged by
    /// their largest margin plus the slack, asked with `forEachContaining`. With tiers of very
    /// different radii this returns far fewer fences per refresh than a `forEachWithin` query,
    /// which must reach `maxRadius + margin + slack` around the device for every fence (on the
    /// 1/3/5-mile workload about half as many; the faster choice when no index is shared).
    /// - Throws: as ``init(fences:index:dwellSeconds:configuration:)``, and
    ///   ``GeofenceError/invalidSetting(field:value:)`` when a fence's radius plus its margins
    ///   and the slack is not a finite number of metres (settings valid alone but too large together).
    public init(fences: [Fence], dwellSeconds: [Int32: Double] = [:],
                configuration: TransitionDetectorConfiguration = .default) throws(GeofenceError) {
        try self.init(validating: fences, dwellSeconds: dwellSeconds, configuration: configuration)
        let extra = configuration.accuracyFactor * configuration.maxAccuracyMeters + configuration.neighborhoodSlackMeters + 1
        var enlarged: [Fence] = []
        enlarged.reserveCapacity(fences.count)
        for f in fences {
            let band = configuration.hysteresisMeters + configuration.hysteresisRadiusFraction * f.radiusMeters
            let radius = f.radiusMeters + band + extra
            do {
                enlarged.append(try Fence(id: f.id, center: f.center, radiusMeters: radius))
            } catch {
                throw .invalidSetting(field: "neighbourhood radius of fence \(f.id)", value: radius)
            }
        }
        let tree = PackedRTree(enlarged)
        self.queryWithin = { _, p, body in tree.forEachContaining(p, body) }
    }

    /// Everything but the index query.
    init(validating fences: [Fence], dwellSeconds: [Int32: Double],
         configuration: TransitionDetectorConfiguration) throws(GeofenceError) {
        try configuration.validate()
        self.configuration = configuration
        self.rules = DecisionRules(configuration)
        self.queryWithin = { _, _, _ in }
        var slots: [Int32: Int32] = [:]
        slots.reserveCapacity(fences.count)
        var maxRadius = 0.0, maxBand = 0.0
        var ids: [Int32] = [], geometry: [FenceGeometry] = []
        ids.reserveCapacity(fences.count)
        geometry.reserveCapacity(fences.count)
        for (k, f) in fences.enumerated() {
            guard slots.updateValue(Int32(k), forKey: f.id) == nil else { throw .duplicateFenceID(f.id) }
            ids.append(f.id)
            let band = configuration.hysteresisMeters + configuration.hysteresisRadiusFraction * f.radiusMeters
            geometry.append(FenceGeometry(center: f.centerVector, radiusChord: f.chord2.squareRoot(),
                                          band: band / Earth.meanRadius, dwellSeconds: .infinity))
            maxRadius = Swift.max(maxRadius, f.radiusMeters)
            maxBand = Swift.max(maxBand, band)
        }
        for (id, seconds) in dwellSeconds {
            guard let slot = slots[id] else { throw .unknownFenceID(id) }
            guard seconds.isFinite, seconds >= 0 else { throw .invalidDwell(seconds) }
            geometry[Int(slot)].dwellSeconds = seconds
        }
        self.fenceIDs = ids
        self.slotsAreIDs = ids.indices.allSatisfy { ids[$0] == Int32(truncatingIfNeeded: $0) }
        self.geometry = geometry
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
        // within the slack of it; + 1 m covers the chord linearisation.
        let maxMargin = maxBand + configuration.accuracyFactor * configuration.maxAccuracyMeters
        self.queryRadiusMeters = maxRadius + maxMargin + configuration.neighborhoodSlackMeters + 1
        self.slackChord2 = Fence.chord2(forRadiusMeters: configuration.neighborhoodSlackMeters)
        self.accuracyChordPerMeter = configuration.accuracyFactor / Earth.meanRadius
        self.slackChord = (configuration.neighborhoodSlackMeters + 1) / Earth.meanRadius
        self.maxAccuracyChord = configuration.accuracyFactor * configuration.maxAccuracyMeters / Earth.meanRadius
    }

    /// A detector over task fences, with its own ``PackedRTree``; `.postArrivalDwell` fences
    /// (any fence with `dwellSeconds`) get dwell events.
    /// - Throws: as ``init(fences:index:dwellSeconds:configuration:)``.
    public init(geofences: [Geofence], configuration: TransitionDetectorConfiguration = .default) throws(GeofenceError) {
        let fences = geofences.map(\.fence)
        var dwell: [Int32: Double] = [:]
        for g in geofences { if let d = g.dwellSeconds { dwell[g.id] = d } }
        try self.init(fences: fences, dwellSeconds: dwell, configuration: configuration)
    }

    /// Number of devices seen.
    public var deviceCount: Int { tracks.count }

    /// Total per-device fence entries held (the sparse state's size).
    public var stateEntryCount: Int { tracks.reduce(0) { $0 + $1.entries.count } }

    /// Feeds one fix of `device`: `time` in seconds, position in degrees, `accuracy` the reported
    /// horizontal accuracy in metres. Appends the events it decides to `events`.
    /// Fixes of one device must come in time order; fixes of different devices may interleave.
    public mutating func process(device: Int32, time: Double, latitude: Double, longitude: Double,
                                 accuracy: Double, into events: inout [TransitionEvent]) {
        counters.fixes += 1
        guard time.isFinite, latitude.isFinite, longitude.isFinite, abs(latitude) <= 90, abs(longitude) <= 180,
              accuracy >= 0 else {
            counters.invalid += 1
            return
        }
        let slot = Int(trackSlot(device))
        let last = tracks[slot].lastTime
        if time < last {
            counters.outOfOrder += 1
            return
        }
        if time == last {
            counters.duplicates += 1
            return
        }
        tracks[slot].lastTime = time
        guard accuracy <= configuration.maxAccuracyMeters else {
            counters.inaccurate += 1
            return
        }
        // The fast libm-free path (within 1e-15 chord of the S2-exact one, about 25 ns cheaper).
        let p = UnitVector(fastLatitude: latitude, longitude: longitude)
        var speed = 0.0  // m/s from the last accepted fix; 0 on the device's first
        if tracks[slot].hasFix {
            // Field by field: copying the whole track would share its entry buffer and force a
            // copy-on-write of all entries below.
            let seconds = time - tracks[slot].fixTime
            let allowed = configuration.maxSpeedMetersPerSecond * seconds
                + configuration.jumpAccuracyFactor * (accuracy + tracks[slot].fixAccuracy) + configuration.jumpSlackMeters
            let meters = p.chord2(to: tracks[slot].fix).squareRoot() * Earth.meanRadius
            if meters > allowed && tracks[slot].rejections < configuration.maxConsecutiveJumpRejections {
                tracks[slot].rejections += 1
                counters.jumps += 1
                return
            }
            speed = meters / seconds
        }
        counters.accepted += 1
        let hadAnchor = tracks[slot].hasFix
        tracks[slot].hasFix = true
        tracks[slot].fix = p
        tracks[slot].fixTime = time
        tracks[slot].fixAccuracy = accuracy
        tracks[slot].rejections = 0
        var moved = hadAnchor ? p.chord2(to: tracks[slot].anchor) : .infinity
        if moved > slackChord2 {
            refreshNeighborhood(slot, at: p, known: hadAnchor)
            moved = 0
        }
        let before = events.count
        update(slot, p, moved: moved.squareRoot(), time: time, accuracy: accuracy, speed: speed, into: &events)
        if events.count - before > 1 {
            // One fix's events in fence-id order, whatever the order of the entries.
            events[before...].sort { $0.fence < $1.fence || ($0.fence == $1.fence && $0.kind.rawValue < $1.kind.rawValue) }
        }
    }

    /// The slot of `device`'s track, created on first sight.
    @usableFromInline
    mutating func trackSlot(_ device: Int32) -> Int32 {
        if device >= 0 && device < Self.smallDeviceLimit {
            let d = Int(device)
            if d < trackOfSmallDevice.count, trackOfSmallDevice[d] >= 0 { return trackOfSmallDevice[d] }
            if d >= trackOfSmallDevice.count {
                // Grow geometrically, so a stream of rising ids costs amortised O(1).
                let size = Swift.min(Int(Self.smallDeviceLimit), Swift.max(d + 1, 2 * trackOfSmallDevice.count, 1024))
                trackOfSmallDevice.append(contentsOf: repeatElement(-1, count: size - trackOfSmallDevice.count))
            }
            let s = Int32(tracks.count)
            tracks.append(DeviceTrack(device: device))
            trackOfSmallDevice[d] = s
            return s
        }
        if let s = trackOfDevice[device] { return s }
        let s = Int32(tracks.count)
        tracks.append(DeviceTrack(device: device))
        trackOfDevice[device] = s
        return s
    }

    /// The slot of `device`'s track, or nil if never seen.
    func existingTrackSlot(_ device: Int32) -> Int32? {
        if device >= 0 && device < Self.smallDeviceLimit {
            let d = Int(device)
            return d < trackOfSmallDevice.count && trackOfSmallDevice[d] >= 0 ? trackOfSmallDevice[d] : nil
        }
        return trackOfDevice[device]
    }
}
