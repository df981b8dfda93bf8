import Geodesy

/// A named location that tasks are bound to: a POI, home, work or any custom place.
///
/// Representation: the caller's `id` and the center in degrees (latitude in [-90, 90],
/// longitude in [-180, 180]). Invariant: the center is a valid `LatLng`; the initializer and
/// the decoder both check it, so a `Place` never holds NaN or out-of-range coordinates.
public struct Place: Hashable, Sendable, Codable, CustomStringConvertible {
    /// Caller's identifier (a POI id, "home", a UUID...). Not interpreted.
    public let id: String
    /// Latitude in degrees, in [-90, 90].
    public let latitude: Double
    /// Longitude in degrees, in [-180, 180].
    public let longitude: Double

    /// Validating initializer.
    /// - Throws: ``GeofenceError/invalidCenter(placeID:_:)`` for NaN, infinite or out-of-range
    ///   coordinates.
    public init(id: String, latitude: Double, longitude: Double) throws(GeofenceError) {
        do {
            _ = try LatLng(latitude: latitude, longitude: longitude)
        } catch {
            throw .invalidCenter(placeID: id, error)
        }
        self.id = id
        self.latitude = latitude
        self.longitude = longitude
    }

    /// A place at an already validated center.
    public init(id: String, center: LatLng) {
        self.id = id
        self.latitude = center.latitude
        self.longitude = center.longitude
    }

    /// The center as a `LatLng` (degrees).
    public var center: LatLng { LatLng(uncheckedLatitude: latitude, longitude: longitude) }

    private enum CodingKeys: String, CodingKey { case id, latitude, longitude }

    /// Decodes and validates like ``init(id:latitude:longitude:)``; a bad center is a
    /// `DecodingError.dataCorrupted` whose underlying error is the ``GeofenceError``.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let id = try c.decode(String.self, forKey: .id)
        let lat = try c.decode(Double.self, forKey: .latitude)
        let lon = try c.decode(Double.self, forKey: .longitude)
        do {
            try self.init(id: id, latitude: lat, longitude: lon)
        } catch {
            throw DecodingError.dataCorrupted(.init(codingPath: c.codingPath, debugDescription: error.description, underlyingError: error))
        }
    }

    /// The id and coordinates, for debugging.
    public var description: String { "Place(\(id), \(latitude), \(longitude))" }
}
