import Geodesy

// Former names of public API, kept so code written against them still compiles (with a
// deprecation warning that names the replacement).

/// The latitude/longitude grid index under its former name.
@available(*, deprecated, renamed: "LatLngGridIndex")
public typealias CellIndex = LatLngGridIndex

extension Fence {
    /// Former spelling of ``center``.
    @available(*, deprecated, renamed: "center")
    public var centre: LatLng { center }

    /// Former spelling of ``centerVector``.
    @available(*, deprecated, renamed: "centerVector")
    public var centreVector: UnitVector { centerVector }

    /// Former spelling of ``init(id:center:radiusMeters:)``.
    @available(*, deprecated, renamed: "init(id:center:radiusMeters:)")
    public init(id: Int32, centre: LatLng, radiusMeters: Double) throws(FenceError) {
        try self.init(id: id, center: centre, radiusMeters: radiusMeters)
    }
}

extension FenceError {
    /// Former spelling of ``invalidCenter(_:)``.
    @available(*, deprecated, renamed: "invalidCenter")
    public static func invalidCentre(_ error: LatLngError) -> FenceError { .invalidCenter(error) }
}

extension FenceDistance {
    /// Former spelling of ``center``.
    @available(*, deprecated, renamed: "center")
    public static var centre: FenceDistance { .center }
}
