import Geodesy
import GeoCells

/// An area that must keep at least one ONLINE responder: a named circle, or an S2 cell.
public struct AlertRegion: Hashable, Sendable {
    /// The area.
    public enum Shape: Hashable, Sendable {
        /// Every point within `radiusMeters` of `center` (great circle, R = 6,371,008.8 m).
        case circle(center: LatLng, radiusMeters: Double)
        /// Every point in the cell.
        case cell(CellID)
    }

    /// Name used in the alert (a cell region defaults to its token).
    public var name: String
    /// The area.
    public var shape: Shape

    /// A region named `name` covering `shape`.
    public init(name: String, shape: Shape) {
        self.name = name
        self.shape = shape
    }

    /// The region of one S2 cell, named by its token.
    public init(cell: CellID) {
        self.init(name: cell.token, shape: .cell(cell))
    }

    /// Whether `point` lies in the region.
    public func contains(_ point: LatLng) -> Bool {
        switch shape {
        case .circle(let center, let radius): haversineDistance(center, point) <= radius
        case .cell(let cell): cell.contains(CellID(point))
        }
    }
}

/// The alert rules and their thresholds.
///
/// "Active responders" are those whose latest fix says on duty or on a mission: status ONLINE,
/// DEGRADED or OFFLINE. UNKNOWN (never reported) and OFF_DUTY are not active.
public struct AlertRules: Hashable, Sendable {
    /// HighOfflineRate fires when `offline > offlineRate * active` (default 0.10: more than
    /// 10 % of active responders offline), with at least one active responder.
    public var offlineRate: Double
    /// ResponderFlapping fires for a responder that went from ONLINE or DEGRADED to OFFLINE at
    /// least `flapCount` times (default 3) within the last `flapWindow` seconds (default 900):
    /// three drops in 15 minutes means two recoveries in between, which a phone that is merely
    /// slow does not do.
    public var flapCount: Int
    /// Seconds; see ``flapCount``.
    public var flapWindow: Double
    /// NoOnlineResponders fires for each of these regions that holds no ONLINE responder
    /// (whether or not anyone else is there: these areas must always be covered).
    public var regions: [AlertRegion]
    /// If set, every S2 cell at this level that holds an active responder is also a region:
    /// NoOnlineResponders fires for a cell whose active responders are all DEGRADED or OFFLINE.
    public var cellLevel: Int?

    /// - Precondition: `offlineRate` in [0, 1], `flapCount >= 1`, `flapWindow > 0`,
    ///   `cellLevel` nil or in 0...30.
    public init(
        offlineRate: Double = 0.10, flapCount: Int = 3, flapWindow: Double = 900,
        regions: [AlertRegion] = [], cellLevel: Int? = nil
    ) {
        precondition(offlineRate >= 0 && offlineRate <= 1 && flapCount >= 1 && flapWindow > 0, "invalid alert thresholds")
        precondition(cellLevel.map { (0...CellID.maxLevel).contains($0) } ?? true, "cell level outside 0...30")
        self.offlineRate = offlineRate
        self.flapCount = flapCount
        self.flapWindow = flapWindow
        self.regions = regions
        self.cellLevel = cellLevel
    }
}

/// A firing alert.
public enum Alert: Hashable, Sendable, CustomStringConvertible {
    /// More than the allowed share of active responders are OFFLINE.
    case highOfflineRate(offline: Int, active: Int)
    /// A responder dropped to OFFLINE `offlineEntries` times within the window.
    case responderFlapping(ResponderID, offlineEntries: Int)
    /// A region holds no ONLINE responder; `active` responders are in it (DEGRADED or OFFLINE).
    case noOnlineResponders(region: String, active: Int)

    /// The alert's name and figures, one line.
    public var description: String {
        switch self {
        case .highOfflineRate(let offline, let active): "HighOfflineRate: \(offline) of \(active) active responders offline"
        case .responderFlapping(let id, let n): "ResponderFlapping: \(id) went offline \(n) times"
        case .noOnlineResponders(let region, let active): "NoOnlineResponders: region \(region) (\(active) active, none online)"
        }
    }
}
