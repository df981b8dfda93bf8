import GeoCells
import Geodesy
import SpatialIndex

/// A task's fences when places may have outlines (``PlaceTask/fences(firstID:outlines:)``): the
/// fences in order, the place of each, and the exact shapes of the fences that are outlines.
///
/// Invariant: `places.count == fences.count`; every id of `outlines` is the id of a fence
/// whose circle contains that polygon (its minimum enclosing circle).
public struct PlaceTaskFences: Sendable {
    /// The fences, numbered consecutively.
    public var fences: [Geofence]
    /// `places[k]` is the index in the task's `places` of the place `fences[k]` belongs to.
    public var places: [Int]
    /// The polygons of the outline fences by fence id: what `TransitionDetector`'s `outlines:`
    /// takes beside `fences.map(\.fence)`.
    public var outlines: FenceOutlines
}

extension PlaceTask {
    /// The fences of this task when place `k` has the outline `outlines[k]` (nil: none).
    ///
    /// The rule: an outline is its place's arrival area. Approach rings stay circles of their
    /// miles around the place's center. The arrival fence and the post-arrival dwell fence of
    /// a place with an outline are that outline, and so is an arrive or leave trigger; a task
    /// whose tiers have no arrival fence (a POI category's rings) gains one arrival fence for
    /// each place with an outline (and its dwell fence when `settings.dwellSeconds` is set).
    /// An outline fence's `Geofence` is the outline's minimum enclosing circle (the circle the
    /// OS monitors; `FenceOutlines/enclosingFence(id:polygon:)`), its `place` keeping the
    /// place's id with that circle's center; its polygon is in the result's `outlines`. Places
    /// without an outline get exactly the fences of ``fences(firstID:)``, in the same order.
    /// - Throws: as ``fences(firstID:)``; ``GeofenceError/outlineCount(places:outlines:)`` when
    ///   `outlines` does not give one entry per place; ``GeofenceError/invalidRadius(_:)`` for
    ///   an outline wider than a hemisphere.
    public func fences(firstID: Int32, outlines: [Polygon?]) throws(GeofenceError) -> PlaceTaskFences {
        guard !id.isEmpty else { throw .emptyTaskID }
        switch kind {
        case .poiCategory:
            guard !places.isEmpty else { throw .placeCount(kind: kind, expected: "at least 1", found: 0) }
        default:
            guard places.count == 1 else { throw .placeCount(kind: kind, expected: "exactly 1", found: places.count) }
        }
        guard outlines.count == places.count else { throw .outlineCount(places: places.count, outlines: outlines.count) }
        for miles in settings.approachMiles where !(miles.isFinite && miles > 0) {
            throw .invalidApproachMiles(miles)
        }
        var out: [Geofence] = []
        var owners: [Int] = []
        var shapes: [(id: Int32, polygon: Polygon)] = []
        var next = Int64(firstID)
        func add(
            _ k: Int, _ kind: GeofenceKind, _ radius: Double, outline: Polygon? = nil, dwell: Double? = nil, delay: Double? = nil
        ) throws(GeofenceError) {
            guard next <= Int64(Int32.max) else { throw .fenceIDOverflow }
            let fenceID = Int32(next)
            var place = places[k]
            var radius = radius
            if let outline {
                let circle = try FenceOutlines.enclosingFence(id: fenceID, polygon: outline)
                place = Place(id: place.id, center: circle.center)
                radius = circle.radiusMeters
                shapes.append((fenceID, outline))
            }
            out.append(
                try Geofence(
                    id: fenceID, taskID: id, place: place, kind: kind, radiusMeters: radius,
                    priority: kind.defaultPriority + settings.priorityBoost,
                    dwellSeconds: dwell, delaySeconds: delay))
            owners.append(k)
            next += 1
        }
        for k in places.indices {
            let outline = outlines[k]
            switch kind {
            case .arriveTrigger, .leaveTrigger:
                try add(
                    k, kind == .arriveTrigger ? .arriveTrigger : .leaveTrigger,
                    settings.triggerRadiusMeters, outline: outline, delay: settings.delaySeconds)
            default:
                for miles in settings.approachMiles {
                    try add(k, .approach(miles: miles), miles * Geodesy.metersPerMile)
                }
                // With an outline the radius given here is replaced by the outline's circle.
                let arrival = settings.arrivalRadiusMeters
                if arrival != nil || outline != nil {
                    try add(k, .arrival, arrival ?? 0, outline: outline)
                    if let dwell = settings.dwellSeconds {
                        try add(k, .postArrivalDwell, arrival ?? 0, outline: outline, dwell: dwell)
                    }
                }
            }
        }
        guard !out.isEmpty else { throw .noFences(taskID: id) }
        return PlaceTaskFences(fences: out, places: owners, outlines: try FenceOutlines(shapes))
    }
}
