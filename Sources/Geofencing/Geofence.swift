import Geodesy
import SpatialIndex

/// One circular fence of a place-bound task, as a value.
///
/// Representation: `id` (the id an index reports, in `0...Int32.max`), the owning task's id,
/// the ``Place`` (center in degrees), the ``GeofenceKind`` tier, `radiusMeters` (great circle
/// on the sphere of radius 6,371,008.8 m), `priority` (larger = more important), and two optional
/// times in seconds: `dwellSeconds` (time inside before a `dwell` event; set on
/// `.postArrivalDwell`) and `delaySeconds` (a trigger's delay before it fires).
///
/// Invariants, checked by ``init(id:taskID:place:kind:radiusMeters:priority:dwellSeconds:delaySeconds:)``
/// and by the decoder: `id >= 0`; `radiusMeters` finite and > 0; `dwellSeconds` and
/// `delaySeconds` nil or finite and >= 0.
public struct Geofence: Hashable, Sendable, Codable, CustomStringConvertible {
    /// Fence id, in `0...Int32.max`; the id indexes and the ``TransitionDetector`` report.
    public let id: Int32
    /// The owning task's id.
    public let taskID: String
    /// The place the fence is centered on.
    public let place: Place
    /// Tier of the fence within its task.
    public let kind: GeofenceKind
    /// Radius in meters, finite and > 0.
    public let radiusMeters: Double
    /// Monitoring priority; larger is more important (see ``GeofenceKind/defaultPriority``).
    public let priority: Int
    /// Seconds the person must stay inside before a `dwell` event; nil = no dwell event.
    public let dwellSeconds: Double?
    /// Seconds a trigger waits after the transition before firing; nil = at once.
    public let delaySeconds: Double?

    /// Validating initializer.
    /// - Throws: ``GeofenceError`` for a negative id, a non-finite or non-positive radius, or a
    ///   negative or non-finite dwell or delay.
    public init(
        id: Int32, taskID: String, place: Place, kind: GeofenceKind, radiusMeters: Double,
        priority: Int? = nil, dwellSeconds: Double? = nil, delaySeconds: Double? = nil
    ) throws(GeofenceError) {
        guard id >= 0 else { throw .negativeFenceID(id) }
        guard radiusMeters.isFinite, radiusMeters > 0 else { throw .invalidRadius(radiusMeters) }
        if let dwellSeconds, !(dwellSeconds.isFinite && dwellSeconds >= 0) { throw .invalidDwell(dwellSeconds) }
        if let delaySeconds, !(delaySeconds.isFinite && delaySeconds >= 0) { throw .invalidDelay(delaySeconds) }
        self.id = id
        self.taskID = taskID
        self.place = place
        self.kind = kind
        self.radiusMeters = radiusMeters
        self.priority = priority ?? kind.defaultPriority
        self.dwellSeconds = dwellSeconds
        self.delaySeconds = delaySeconds
    }

    /// The circle as a SpatialIndex `Fence` (same id, center and radius), for building an index.
    public var fence: Fence {
        // Cannot fail: the invariants above are stronger than Fence's.
        try! Fence(id: id, center: place.center, radiusMeters: radiusMeters)
    }

    private enum CodingKeys: String, CodingKey {
        case id, taskID, place, kind, radiusMeters, priority, dwellSeconds, delaySeconds
    }

    /// Decodes and validates; a broken invariant is a `DecodingError.dataCorrupted` whose
    /// underlying error is the ``GeofenceError``.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        do {
            try self.init(
                id: try c.decode(Int32.self, forKey: .id),
                taskID: try c.decode(String.self, forKey: .taskID),
                place: try c.decode(Place.self, forKey: .place),
                kind: try c.decode(GeofenceKind.self, forKey: .kind),
                radiusMeters: try c.decode(Double.self, forKey: .radiusMeters),
                priority: try c.decode(Int.self, forKey: .priority),
                dwellSeconds: try c.decodeIfPresent(Double.self, forKey: .dwellSeconds),
                delaySeconds: try c.decodeIfPresent(Double.self, forKey: .delaySeconds))
        } catch let error as GeofenceError {
            throw DecodingError.dataCorrupted(.init(codingPath: c.codingPath, debugDescription: error.description, underlyingError: error))
        }
    }

    /// The id, kind, place and radius, for debugging.
    public var description: String {
        "Geofence(\(id), task \(taskID), \(kind), \(place.id), \(radiusMeters) m, priority \(priority))"
    }
}
