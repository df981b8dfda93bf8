import Geodesy
import SpatialIndex

/// The server's map of who can take an incident: every responder's latest position, and a
/// ``DynamicRTree`` over the ONLINE ones only (each a zero-radius fence whose id is the
/// responder's), edited in place as responders move and change status.
///
/// Feed it the latest positions (``updatePosition(_:latitude:longitude:)``) and the liveness
/// transitions (``apply(_:)``); ask it for the ONLINE responders nearest an incident
/// (``onlineNearest(to:limit:maxDistanceMeters:)``).
/// - Complexity: an update or status change is one tree edit, O(log n); a query is the tree's
///   best-first k-nearest search.
public struct Dispatcher: Sendable {
    private var tree = DynamicRTree()
    private var positions: [ResponderID: LatLng] = [:]
    private var online: Set<ResponderID> = []
    private var scratch: [FenceNeighbor] = []

    public init() {}

    /// Responders in the index (ONLINE with a known position).
    public var indexedCount: Int { tree.count }

    /// The latest position of `responder`, nil if none.
    public func position(of responder: ResponderID) -> LatLng? { positions[responder] }

    /// Records `responder`'s new latest position (degrees). Invalid coordinates are ignored
    /// (``FixFilter`` drops them on the phone; the server keeps the last valid one).
    public mutating func updatePosition(_ responder: ResponderID, latitude: Double, longitude: Double) {
        guard let point = try? LatLng(latitude: latitude, longitude: longitude) else { return }
        positions[responder] = point
        if online.contains(responder) { place(responder, at: point) }
    }

    /// Applies liveness transitions: a responder enters the index when it turns ONLINE and
    /// leaves it for any other status.
    public mutating func apply(_ events: some Sequence<LivenessTransition>) {
        for e in events {
            if e.to == .online {
                online.insert(e.responder)
                if let point = positions[e.responder] { place(e.responder, at: point) }
            } else if online.remove(e.responder) != nil {
                _ = tree.remove(id: e.responder.rawValue)
            }
        }
    }

    /// Up to `limit` ONLINE responders nearest `point`, within `maxDistanceMeters`, nearest first
    /// (ties by id), with their great-circle distances in metres.
    public mutating func onlineNearest(to point: LatLng, limit: Int, maxDistanceMeters: Double = .infinity) -> [(ResponderID, Double)] {
        tree.nearest(to: point.unitVector, k: limit, maxDistanceMeters: maxDistanceMeters, into: &scratch)
        return scratch.map { (ResponderID(rawValue: $0.id)!, $0.distanceMeters) }
    }

    private mutating func place(_ responder: ResponderID, at point: LatLng) {
        // Cannot fail: a zero radius is a valid fence, and ResponderID's range is Fence's id range.
        guard let fence = try? Fence(id: responder.rawValue, latitude: point.latitude, longitude: point.longitude,
                                     radiusMeters: 0) else { return }
        tree.update(fence)   // inserts, or moves the responder's point
    }
}
