import Geodesy

// Former names of public API, kept so code written against them still compiles (with a
// deprecation warning that names the replacement).

extension Place {
    /// Former spelling of ``init(id:center:)``.
    @available(*, deprecated, renamed: "init(id:center:)")
    public init(id: String, centre: LatLng) { self.init(id: id, center: centre) }

    /// Former spelling of ``center``.
    @available(*, deprecated, renamed: "center")
    public var centre: LatLng { center }
}

extension MonitorPlanner.Region {
    /// Former spelling of ``init(id:center:radiusMeters:)``.
    @available(*, deprecated, renamed: "init(id:center:radiusMeters:)")
    public init(id: MonitorPlanner.RegionID, centre: LatLng, radiusMeters: Double) {
        self.init(id: id, center: centre, radiusMeters: radiusMeters)
    }

    /// Former spelling of ``center``.
    @available(*, deprecated, renamed: "center")
    public var centre: LatLng { center }
}

extension GeofenceError {
    /// Former spelling of ``invalidCenter(placeID:_:)``.
    @available(*, deprecated, renamed: "invalidCenter")
    public static func invalidCentre(placeID: String, _ error: LatLngError) -> GeofenceError {
        .invalidCenter(placeID: placeID, error)
    }
}

extension MonitorPlanner.Error {
    /// Former spelling of ``invalidCandidateCenter(id:)``.
    @available(*, deprecated, renamed: "invalidCandidateCenter")
    public static func invalidCandidateCentre(id: Int32) -> MonitorPlanner.Error { .invalidCandidateCenter(id: id) }
}
