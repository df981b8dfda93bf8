import Geodesy
import SpatialIndex

/// The server's map of who can take an incident: every responder's latest position, and a
/// `DynamicRTree` over the ONLINE ones only (each a zero-radius fence whose id is the
/// responder's), edited in place as responders move and change status.
///
/// Feed it the latest positions (``updatePosition(_:latitude:longitude:)``) and the liveness
/// transitions (``apply(_:)``); ask it for the ONLINE responders nearest an incident
/// (``onlineNearest(to:limit:maxDistanceMeters:)``).
///
/// Moves reach the tree lazily: a new position marks the responder, and a query first moves the
/// marked ones (once each, however often they reported since). Positions arrive hundreds of
/// times more often than incidents, so most moves never cost a tree edit, and the answers are
/// those of a tree edited at every fix.
/// - Complexity: a position update is O(1) (a hash insert); a status change is one tree edit,
///   O(log n); a query applies the pending moves (O(log n) each), then runs the tree's
///   best-first k-nearest search.
public struct Dispatcher: Sendable {
    private var tree = DynamicRTree()
    private var positions: [ResponderID: LatLng] = [:]
    private var online: Set<ResponderID> = []
    /// ONLINE responders whose point in the tree is stale (or missing).
    private var moved: Set<ResponderID> = []
    private var scratch: [FenceNeighbor] = []

    /// An empty map: no positions, nobody ONLINE.
    public init() {}

    /// Responders the index answers for: ONLINE with a known position.
    public var indexedCount: Int { tree.count + moved.filter { !tree.contains(id: $0.rawValue) }.count }

    /// The latest position of `responder`, nil if none.
    public func position(of responder: ResponderID) -> LatLng? { positions[responder] }

    /// Records `responder`'s new latest position (degrees). Invalid coordinates are ignored
    /// (``FixFilter`` drops them on the phone; the server keeps the last valid one).
    public mutating func updatePosition(_ responder: ResponderID, latitude: Double, longitude: Double) {
        guard let point = try? LatLng(latitude: latitude, longitude: longitude) else { return }
        positions[responder] = point
        if online.contains(responder) { moved.insert(responder) }
    }

    /// Applies liveness transitions: a responder enters the index when it turns ONLINE and
    /// leaves it for any other status.
    public mutating func apply(_ events: some Sequence<LivenessTransition>) {
        for e in events {
            if e.to == .online {
                online.insert(e.responder)
                if positions[e.responder] != nil { moved.insert(e.responder) }
            } else if online.remove(e.responder) != nil {
                moved.remove(e.responder)
                tree.remove(id: e.responder.rawValue)
            }
        }
    }

    /// Up to `limit` ONLINE responders nearest `point`, within `maxDistanceMeters`, nearest first
    /// (ties by id), with their great-circle distances in meters.
    public mutating func onlineNearest(to point: LatLng, limit: Int, maxDistanceMeters: Double = .infinity) -> [(ResponderID, Double)] {
        for responder in moved {
            guard let position = positions[responder],
                // Cannot fail: a zero radius is a valid fence, and ResponderID's range is Fence's id range.
                let fence = try? Fence(
                    id: responder.rawValue, latitude: position.latitude, longitude: position.longitude,
                    radiusMeters: 0)
            else { continue }
            tree.update(fence)  // inserts, or moves the responder's point
        }
        moved.removeAll(keepingCapacity: true)
        tree.nearest(to: point.unitVector, k: limit, maxDistanceMeters: maxDistanceMeters, into: &scratch)
        return scratch.map { (ResponderID(rawValue: $0.id)!, $0.distanceMeters) }
    }
}
