import Geodesy

/// Why a place, fence, task or detector input was rejected.
public enum GeofenceError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A place's center is NaN, infinite or out of range.
    case invalidCenter(placeID: String, LatLngError)
    /// A fence id below 0 (ids must be in `0...Int32.max`).
    case negativeFenceID(Int32)
    /// Fence ids ran past `Int32.max` while numbering a task's fences.
    case fenceIDOverflow
    /// A radius that is NaN, infinite, zero or negative (meters).
    case invalidRadius(Double)
    /// An approach ring of NaN, infinite, zero or negative miles.
    case invalidApproachMiles(Double)
    /// A dwell time that is NaN, infinite or negative (seconds).
    case invalidDwell(Double)
    /// A trigger delay that is NaN, infinite or negative (seconds).
    case invalidDelay(Double)
    /// A task id that is empty.
    case emptyTaskID
    /// A task kind given the wrong number of places (home, work, custom and triggers take
    /// exactly one; a POI-category task at least one).
    case placeCount(kind: TaskKind, expected: String, found: Int)
    /// A task whose settings produce no fence at all.
    case noFences(taskID: String)
    /// The detector was given a fence id it does not know.
    case unknownFenceID(Int32)
    /// The detector was given two fences with the same id.
    case duplicateFenceID(Int32)
    /// The detector's index does not hold the same number of fences as its fence list.
    case indexMismatch(fences: Int, indexed: Int)
    /// A ``TransitionDetectorConfiguration`` field out of range.
    case invalidSetting(field: String, value: Double)
    /// A binary snapshot (``TransitionDetector/binarySnapshot()``) that is not one, ends early
    /// or has bytes left over: `offset` is the byte where reading failed.
    case corruptSnapshot(offset: Int)
    /// More of `what` than the detector's layout can hold (`limit`; `found` were asked for).
    case capacityExceeded(what: String, found: Int, limit: Int)
    /// A polygon fence's outline reaches outside its fence's circle (vertex `vertex` of the
    /// polygon's vertices), which must contain it.
    case outlineOutsideFence(id: Int32, vertex: Int)
    /// A task given a different number of outlines (one per place, nil for none) than places.
    case outlineCount(places: Int, outlines: Int)

    /// What was rejected and why, naming the field or id.
    public var description: String {
        switch self {
        case .invalidCenter(let id, let e): return "place \(id): \(e.description)"
        case .negativeFenceID(let v): return "fence id must be in 0...\(Int32.max), got \(v)"
        case .fenceIDOverflow: return "fence ids overflow Int32"
        case .invalidRadius(let v): return "radius must be a finite number of meters > 0, got \(v)"
        case .invalidApproachMiles(let v): return "approach ring must be a finite number of miles > 0, got \(v)"
        case .invalidDwell(let v): return "dwell must be a finite number of seconds >= 0, got \(v)"
        case .invalidDelay(let v): return "delay must be a finite number of seconds >= 0, got \(v)"
        case .emptyTaskID: return "task id must not be empty"
        case .placeCount(let kind, let expected, let found):
            return "a \(kind.rawValue) task takes \(expected) place(s), got \(found)"
        case .noFences(let id): return "task \(id) produces no fences"
        case .unknownFenceID(let id): return "unknown fence id \(id)"
        case .duplicateFenceID(let id): return "duplicate fence id \(id)"
        case .indexMismatch(let f, let i): return "the index holds \(i) fences but the detector was given \(f)"
        case .invalidSetting(let field, let value): return "detector setting \(field) out of range: \(value)"
        case .corruptSnapshot(let offset): return "corrupt binary snapshot: unreadable at byte \(offset)"
        case .capacityExceeded(let what, let found, let limit):
            return "\(found) \(what): the detector holds at most \(limit)"
        case .outlineOutsideFence(let id, let vertex):
            return "polygon fence \(id): vertex \(vertex) lies outside the fence's circle, which must contain the polygon"
        case .outlineCount(let places, let outlines):
            return "a task of \(places) place(s) needs one outline entry per place (nil for none), got \(outlines)"
        }
    }
}
