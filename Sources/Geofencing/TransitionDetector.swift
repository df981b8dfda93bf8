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
/// The first decisive state of a fence for a device sets the state without an event. A fence
/// with a dwell time emits `dwell` once the device has stayed inside that long since its entry
/// event. A trigger's `delaySeconds` is not applied here: it is the caller's scheduling.
///
/// Sparse state: each device keeps entries only for fences whose boundary band passes within
/// `neighbourhoodSlackMeters` of the point where it last asked the index, plus the fences it is
/// inside; every other fence is, provably, decisively outside for any fix within the slack.
/// The index (`forEachWithin(meters: maxRadius + maxMargin + slack)`) is asked again when the
/// device has moved `neighbourhoodSlackMeters` from that point, so the slack trades index
/// queries for entries held and never changes an event. A fix visits only the entries whose
/// decision band it could have reached (a prefix of the entries ordered by horizon; see
/// `refreshNeighbourhood`), so a device standing still costs almost nothing per fix.
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
    /// Squared chord of `neighbourhoodSlackMeters`.
    @usableFromInline let slackChord2: Double
    /// `neighbourhoodSlackMeters / R` + 1 m: the slack in chord units, rounded up.
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
        if tracks[slot].hasFix {
            // Field by field: copying the whole track would share its entry buffer and force a
            // copy-on-write of all entries below.
            let allowed = configuration.maxSpeedMetersPerSecond * (time - tracks[slot].fixTime)
                + configuration.jumpAccuracyFactor * (accuracy + tracks[slot].fixAccuracy) + configuration.jumpSlackMeters
            let chord = p.chord2(to: tracks[slot].fix).squareRoot()
            if chord * Earth.meanRadius > allowed && tracks[slot].rejections < configuration.maxConsecutiveJumpRejections {
                tracks[slot].rejections += 1
                counters.jumps += 1
                return
            }
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
        update(slot, p, moved: moved.squareRoot(), time: time, accuracyChord: accuracy * accuracyChordPerMeter, into: &events)
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

    /// Applies one accepted fix to the fence entries of a track that it could change: those whose
    /// horizon is within `moved` (chord from the anchor to `p`), and every entry already
    /// touched since the last refresh (a high-water mark, so an entry that changed state is
    /// never skipped again when the device moves back towards the anchor).
    @usableFromInline
    mutating func update(_ slot: Int, _ p: UnitVector, moved: Double, time: Double, accuracyChord: Double,
                         into events: inout [TransitionEvent]) {
        var reach = tracks[slot].processed
        if moved >= tracks[slot].nextHorizon {
            // Only now touch the entry buffer (a likely cache miss for a device seen long ago).
            let count = tracks[slot].entries.count
            while reach < count && tracks[slot].entries[reach].horizon <= moved { reach += 1 }
            tracks[slot].processed = reach
            tracks[slot].nextHorizon = reach < count ? tracks[slot].entries[reach].horizon : .infinity
        }
        if reach == 0 { return }
        let device = tracks[slot].device
        let enterNeeded = UInt8(configuration.enterConfirmations)
        let exitNeeded = UInt8(configuration.exitConfirmations)
        let minDwell = configuration.minimumDwellSeconds
        let fenceIDs = self.fenceIDs
        let slotsAreIDs = self.slotsAreIDs
        let geometry = self.geometry
        tracks[slot].entries.withUnsafeMutableBufferPointer { entries in
            for k in 0..<reach {
                let c2 = p.chord2(to: entries[k].center)
                let band = entries[k].band + accuracyChord
                let rc = entries[k].radiusChord
                let outer = rc + band
                let inner = rc - band
                let inside = inner > 0 && c2 < inner * inner
                let outside = c2 > outer * outer
                switch entries[k].state {
                case .outside:
                    if !inside {
                        entries[k].pending = 0
                        continue
                    }
                    if entries[k].pending == 0 { entries[k].pendingSince = time }
                    entries[k].pending &+= 1
                    if entries[k].pending >= enterNeeded && time - entries[k].pendingSince >= minDwell {
                        entries[k].state = .inside
                        entries[k].pending = 0
                        entries[k].enteredAt = time
                        entries[k].dwellDone = !entries[k].hasDwell
                        events.append(TransitionEvent(device: device, fence: slotsAreIDs ? entries[k].slot : fenceIDs[Int(entries[k].slot)], kind: .enter, time: time))
                    }
                case .inside:
                    if outside {
                        entries[k].pending &+= 1
                        if entries[k].pending >= exitNeeded {
                            entries[k].state = .outside
                            entries[k].pending = 0
                            events.append(TransitionEvent(device: device, fence: slotsAreIDs ? entries[k].slot : fenceIDs[Int(entries[k].slot)], kind: .exit, time: time))
                            continue
                        }
                    } else {
                        entries[k].pending = 0
                    }
                    if !entries[k].dwellDone && time - entries[k].enteredAt >= geometry[Int(entries[k].slot)].dwellSeconds {
                        entries[k].dwellDone = true
                        events.append(TransitionEvent(device: device, fence: slotsAreIDs ? entries[k].slot : fenceIDs[Int(entries[k].slot)], kind: .dwell, time: time))
                    }
                case .unknown:
                    if inside {
                        entries[k].state = .inside
                        entries[k].enteredAt = time
                        entries[k].dwellDone = true  // no entry event, so no dwell event either
                    } else if outside {
                        entries[k].state = .outside
                    }
                }
            }
        }
    }

    /// Re-fetches the fences near `p` and merges them with the track's entries (by slot):
    /// new fences start `outside` when the device had an earlier accepted fix (every fence not
    /// held was decisively outside then) and `unknown` on its first fix; fences settled outside
    /// whose boundary band stays beyond the slack are dropped (implicitly outside).
    /// Each kept entry gets its horizon: how far (chord units) the device may move from `p`
    /// before a fix could be decisive on the other side of the fence than `p` is, i.e.
    /// `|chord(p, centre) - radiusChord| - band - maxAccuracyChord` (chords obey the triangle
    /// inequality); -1 (always visited) when its state is unknown, pending, not the side `p`
    /// is on, or has a dwell to fire. Entries are ordered by horizon (a counting sort; each
    /// horizon rounded down to its bucket's lower edge, see ``horizonBuckets``), so a fix visits
    /// a prefix.
    @usableFromInline
    mutating func refreshNeighborhood(_ slot: Int, at p: UnitVector, known: Bool) {
        counters.neighborhoodQueries += 1
        var unknown = 0
        var found = scratch
        scratch = []
        found.removeAll(keepingCapacity: true)
        if slotTable.isEmpty {
            let slots = slotOfID
            queryWithin(queryRadiusMeters, p) { id in
                if let s = slots[id] { found.append(s) } else { unknown += 1 }
            }
        } else {
            slotTable.withUnsafeBufferPointer { table in
                queryWithin(queryRadiusMeters, p) { id in
                    let s = id >= 0 && Int(id) < table.count ? table[Int(id)] : -1
                    if s >= 0 { found.append(s) } else { unknown += 1 }
                }
            }
        }
        counters.unknownFenceIDs += unknown
        var old: [FenceEntry] = []
        swap(&old, &tracks[slot].entries)
        // Scratch buffers keep their size between refreshes; only their first `n` are used.
        var kept = spareEntries
        spareEntries = []
        var buckets = bucketOf
        bucketOf = []
        let capacity = found.count + old.count
        if kept.count < capacity {
            kept.append(contentsOf: repeatElement(FenceEntry(slot: 0, center: p, radiusChord: 0, band: 0, dwellSeconds: 0, state: .unknown),
                                                  count: capacity - kept.count))
        }
        if buckets.count < capacity { buckets.append(contentsOf: repeatElement(0, count: capacity - buckets.count)) }
        let dropBeyond = slackChord + 1e-12
        let maxAccuracyChord = self.maxAccuracyChord
        let lastBucket = Self.horizonBuckets - 1
        let bucketWidth = (slackChord - 1e-12) / Double(lastBucket - 1)  // 62 widths end just below the slack
        var n = 0
        var ordered: [FenceEntry] = []
        withUnsafeTemporaryAllocation(of: Int32.self, capacity: Self.horizonBuckets) { counts in
        counts.initialize(repeating: 0)
        kept.withUnsafeMutableBufferPointer { kept in
        buckets.withUnsafeMutableBufferPointer { buckets in
        mark.withUnsafeMutableBufferPointer { mark in
        geometry.withUnsafeBufferPointer { geometry in
        old.withUnsafeBufferPointer { old in
            // Keeps `e` (with its horizon and sort key) unless it is settled outside beyond the slack.
            func consider(_ entry: FenceEntry, wasFound: Bool) {
                var e = entry
                if !wasFound && !(e.state == .inside || e.pending > 0) { return }
                let ca = p.chord2(to: e.center).squareRoot()
                let gap = abs(ca - e.radiusChord) - e.band - maxAccuracyChord
                let outsideSide = ca > e.radiusChord
                let settled = e.pending == 0 && e.state != .unknown && e.dwellDone
                let agrees = outsideSide ? e.state == .outside : e.state == .inside
                if settled && agrees && outsideSide && gap > dropBeyond { return }  // settled outside, beyond the slack
                var b = 0
                if settled && agrees && gap > 0 {
                    // The bucket's lower edge, never above the gap (a safe, rounded-down horizon).
                    var k = Swift.min(lastBucket - 1, Int(gap / bucketWidth))
                    if Double(k) * bucketWidth > gap { k -= 1 }
                    e.horizon = Double(k) * bucketWidth
                    b = k + 1
                } else {
                    e.horizon = -1
                }
                buckets[n] = UInt8(truncatingIfNeeded: b)
                counts[b] += 1
                kept[n] = e
                n += 1
            }
            // Candidates: every old entry (marked by slot), then every found fence not already held.
            for k in old.indices { mark[Int(old[k].slot)] = Int32(k) }
            let newState: FenceEntry.State = known ? .outside : .unknown
            for s in found {
                let m = mark[Int(s)]
                if m >= 0 {
                    consider(old[Int(m)], wasFound: true)
                    mark[Int(s)] = -2  // handled
                } else if m == -1 {
                    let g = geometry[Int(s)]
                    consider(FenceEntry(slot: s, center: g.center, radiusChord: g.radiusChord, band: g.band,
                                        dwellSeconds: g.dwellSeconds, state: newState), wasFound: true)
                }
            }
            for e in old {
                if mark[Int(e.slot)] >= 0 { consider(e, wasFound: false) }
                mark[Int(e.slot)] = -1
            }
            // Counting sort by bucket (stable): bucket starts, then each entry to its place.
            var start: Int32 = 0
            for b in 0..<counts.count {
                let c = counts[b]
                counts[b] = start
                start += c
            }
            let count = n
            ordered = [FenceEntry](unsafeUninitializedCapacity: count) { buffer, initialized in
                for i in 0..<count {
                    let b = Int(buckets[i])
                    (buffer.baseAddress! + Int(counts[b])).initialize(to: kept[i])
                    counts[b] += 1
                }
                initialized = count
            }
        }
        }
        }
        }
        }
        }
        scratch = found
        bucketOf = buckets
        spareEntries = kept
        tracks[slot].nextHorizon = ordered.first?.horizon ?? .infinity
        tracks[slot].entries = ordered
        tracks[slot].processed = 0
        tracks[slot].anchor = p
    }

    @usableFromInline
    func makeEntry(_ slot: Int32, state: FenceEntry.State) -> FenceEntry {
        let g = geometry[Int(slot)]
        return FenceEntry(slot: slot, center: g.center, radiusChord: g.radiusChord, band: g.band,
                          dwellSeconds: g.dwellSeconds, state: state)
    }
}

/// One fence's geometry, cached by slot: centre, radius and band in chord units, dwell seconds
/// (infinity for none).
@usableFromInline
struct FenceGeometry {
    @usableFromInline var center: UnitVector
    @usableFromInline var radiusChord: Double
    @usableFromInline var band: Double
    @usableFromInline var dwellSeconds: Double

    @usableFromInline
    init(center: UnitVector, radiusChord: Double, band: Double, dwellSeconds: Double) {
        self.center = center
        self.radiusChord = radiusChord
        self.band = band
        self.dwellSeconds = dwellSeconds
    }
}

/// One device's state: clock, last accepted fix, neighbourhood anchor and fence entries.
@usableFromInline
struct DeviceTrack {
    @usableFromInline var device: Int32
    /// Time of the last fix seen (accepted or gated), seconds; -infinity before any.
    @usableFromInline var lastTime = -Double.infinity
    /// Whether a fix has been accepted (then `fix`, `fixTime`, `fixAccuracy`, `anchor` are set).
    @usableFromInline var hasFix = false
    @usableFromInline var fix = UnitVector(x: 1, y: 0, z: 0)
    @usableFromInline var fixTime = 0.0
    @usableFromInline var fixAccuracy = 0.0
    /// Consecutive fixes rejected by the jump gate.
    @usableFromInline var rejections = 0
    /// Where the neighbourhood was last fetched.
    @usableFromInline var anchor = UnitVector(x: 1, y: 0, z: 0)
    /// Fence entries, in increasing horizon since the last refresh.
    @usableFromInline var entries: [FenceEntry] = []
    /// Entries `0..<processed` are visited by every fix until the next refresh.
    @usableFromInline var processed = 0
    /// `entries[processed].horizon`, or infinity: lets a fix that reaches no new entry skip
    /// the entry buffer when `processed` is 0.
    @usableFromInline var nextHorizon = Double.infinity

    @usableFromInline init(device: Int32) { self.device = device }
}

/// A device's state for one nearby fence, with the fence's geometry cached beside it so the
/// per-fix scan reads one contiguous array. Exactly 64 bytes (one cache line of the scan):
/// geometry and times first, then the slot and the one-byte fields.
@usableFromInline
struct FenceEntry {
    @usableFromInline enum State: UInt8 { case unknown, outside, inside }

    @usableFromInline var center: UnitVector
    @usableFromInline var radiusChord: Double
    @usableFromInline var band: Double
    /// Seconds: while outside, the time of the first fix of the pending entry run; while
    /// inside, the time of the entry event (the dwell clock). One field serves both because
    /// each is read only in its own state and written before that state first reads it.
    @usableFromInline var since = 0.0
    /// Chord distance from the anchor the device must move before a fix could change this
    /// entry; -1 = visit on every fix.
    @usableFromInline var horizon = -1.0
    @usableFromInline var slot: Int32
    @usableFromInline var state: State
    /// Consecutive decisive fixes towards the other state.
    @usableFromInline var pending: UInt8 = 0
    /// Whether the dwell event is done (or not wanted) for the current stay.
    @usableFromInline var dwellDone = true
    /// Whether the fence has a dwell time (its seconds are in the detector's `geometry`).
    @usableFromInline var hasDwell: Bool

    /// Time of the first fix of the pending run, seconds (meaningful while outside).
    @usableFromInline var pendingSince: Double {
        get { since }
        set { since = newValue }
    }
    /// Time of the entry event, seconds (meaningful while inside).
    @usableFromInline var enteredAt: Double {
        get { since }
        set { since = newValue }
    }

    @usableFromInline
    init(slot: Int32, center: UnitVector, radiusChord: Double, band: Double, dwellSeconds: Double, state: State) {
        self.slot = slot
        self.state = state
        self.center = center
        self.radiusChord = radiusChord
        self.band = band
        self.hasDwell = dwellSeconds != .infinity
    }
}
