import Geodesy

/// A deterministic rule that places circular fences along recorded GPS traces, so a detector
/// can be run over real movement that has no fences of its own.
///
/// The rule, per device in ascending device id, over that device's fixes in stream order
/// (0-based position `k` among the device's own fixes): every fix with `k % every == offset`
/// is an *anchor*. Each anchor gets, in this order,
/// 1. one fence per radius of ``radii`` centered on the anchor (concentric tiers of one POI:
///    `poiID` shared, `tier` 0, 1, 2, ...), which the trace crosses through the middle; then
/// 2. one *grazing* fence per radius, each its own POI (tier 0), centered `grazingFraction × r`
///    meters due north of the anchor along the great circle (`Geodesy/destination(from:bearing:distance:)`,
///    so the center stays a valid position next to a pole or across the antimeridian), so the
///    anchor lies `(1 - grazingFraction) r` inside the boundary and the trace brushes it.
///
/// Fence ids and POI ids count up from 0 in that order. The defaults (every 8th fix from the
/// 5th, radii 50, 150 and 400 m, grazing at 0.9 r) give 6 fences per anchor.
/// Invariants: the same fixes give the same fences; only positions, devices and the stream
/// order are read (not times or accuracies).
public struct TraceFencePlacement: Hashable, Sendable {
    /// Anchor spacing along a device's fixes, in fixes (>= 1).
    public var every: Int
    /// Position of the first anchor among a device's fixes, in `0..<every`.
    public var offset: Int
    /// Fence radii around each anchor, meters (finite, > 0).
    public var radii: [Double]
    /// Distance of a grazing fence's center from its anchor, as a fraction of its radius
    /// (finite, >= 0; 0 places it on the anchor).
    public var grazingFraction: Double

    /// A placement rule; the defaults are every 8th fix from the 5th, radii 50/150/400 m, grazing at 0.9 r.
    /// - Precondition: the ranges documented on each property.
    public init(every: Int = 8, offset: Int = 4, radii: [Double] = [50, 150, 400], grazingFraction: Double = 0.9) {
        precondition(every >= 1 && (0..<every).contains(offset), "offset \(offset) outside 0..<\(every)")
        precondition(radii.allSatisfy { $0.isFinite && $0 > 0 }, "radii must be finite and > 0: \(radii)")
        precondition(grazingFraction.isFinite && grazingFraction >= 0, "grazing fraction \(grazingFraction)")
        self.every = every
        self.offset = offset
        self.radii = radii
        self.grazingFraction = grazingFraction
    }

    /// The fences of this rule along `fixes` (positions must be valid: |lat| <= 90,
    /// |lon| <= 180, as ``WorkloadReader`` guarantees). `2 × radii.count` fences per anchor.
    /// - Complexity: O(n log n) in the fixes (grouping by device).
    public func fences(along fixes: FixStream) -> [WorkloadFence] {
        // Fix indexes grouped by device (ascending), stream order kept within a device.
        let order = (0..<fixes.count).sorted { (fixes.device[$0], $0) < (fixes.device[$1], $1) }
        var fences: [WorkloadFence] = []
        var poi: Int32 = 0
        var k = 0
        for (n, i) in order.enumerated() {
            k = n > 0 && fixes.device[order[n - 1]] == fixes.device[i] ? k + 1 : 0
            guard k % every == offset else { continue }
            let anchor = LatLng(uncheckedLatitude: fixes.latitude[i], longitude: fixes.longitude[i])
            for (tier, r) in radii.enumerated() {
                fences.append(
                    WorkloadFence(
                        id: Int32(fences.count), latitude: anchor.latitude, longitude: anchor.longitude,
                        radius: r, poiID: poi, tier: Int32(tier)))
            }
            poi += 1
            for r in radii {
                let center = destination(from: anchor, bearing: 0, distance: grazingFraction * r)
                fences.append(
                    WorkloadFence(
                        id: Int32(fences.count), latitude: center.latitude, longitude: center.longitude,
                        radius: r, poiID: poi, tier: 0))
                poi += 1
            }
        }
        return fences
    }
}
