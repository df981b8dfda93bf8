import GeoCells
import Geodesy
import Geofencing
import SpatialIndex

/// The baseline a `TransitionDetector` is scored against: a fix is inside a fence when its raw
/// great-circle distance is `<= radius` (the index's exact chord test), or for a polygon fence
/// (``outlines``; its circle in the index contains it) when the polygon contains it (S2's exact
/// containment), with no hysteresis, no gating and no confirmation; every change of a (device,
/// fence) state between a device's consecutive fixes is an event. A device's first fix sets
/// its state without events.
///
/// Run on the noise-free truth positions, the same rule defines the true transitions of the
/// scoring (``TransitionScoring``). State: per device, the sorted ids of the fences it is in.
public struct NaiveDetector<Index: FenceIndex> {
    /// The index asked for the fences containing each fix.
    public let index: Index
    /// The polygon fences among the index's fences.
    public let outlines: FenceOutlines
    @usableFromInline var insideOfDevice: [Int32: [Int32]] = [:]
    @usableFromInline var scratch: [Int32] = []

    /// A detector over the fences of `index` (polygon fences: `outlines`), with no device seen.
    public init(index: Index, outlines: FenceOutlines = FenceOutlines()) {
        self.index = index
        self.outlines = outlines
    }

    /// Feeds one fix (degrees; must be valid coordinates) and appends its events.
    @inlinable
    public mutating func process(
        device: Int32, time: Double, latitude: Double, longitude: Double,
        into events: inout [TransitionEvent]
    ) {
        let p = UnitVector(LatLng(uncheckedLatitude: latitude, longitude: longitude))
        scratch.removeAll(keepingCapacity: true)
        if outlines.isEmpty {
            index.forEachContaining(p) { scratch.append($0) }
        } else {
            index.forEachContaining(p) { id in
                if outlines.polygon(forID: id)?.contains(p) ?? true { scratch.append(id) }
            }
        }
        scratch.sort()
        guard var old = insideOfDevice[device] else {
            insideOfDevice[device] = scratch
            return
        }
        // Merge two sorted lists: ids only in `old` are exits, only in `scratch` are entries.
        var i = 0, j = 0
        while i < old.count || j < scratch.count {
            if j == scratch.count || (i < old.count && old[i] < scratch[j]) {
                events.append(TransitionEvent(device: device, fence: old[i], kind: .exit, time: time))
                i += 1
            } else if i == old.count || scratch[j] < old[i] {
                events.append(TransitionEvent(device: device, fence: scratch[j], kind: .enter, time: time))
                j += 1
            } else {
                i += 1
                j += 1
            }
        }
        old.removeAll(keepingCapacity: true)
        old.append(contentsOf: scratch)
        insideOfDevice[device] = old
    }
}
