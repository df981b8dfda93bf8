import Geodesy

/// One fence's geometry, cached by slot: centre, radius and band in chord units, dwell seconds
/// (infinity for none).
@usableFromInline
struct FenceGeometry {
    @usableFromInline var center: UnitVector
    @usableFromInline var radiusChord: Double
    @usableFromInline var band: Double
    @usableFromInline var dwellSeconds: Double

    @usableFromInline
    init(center: UnitVector, radiusChord: Double, band: Double, dwellSeconds: Double) {
        self.center = center
        self.radiusChord = radiusChord
        self.band = band
        self.dwellSeconds = dwellSeconds
    }
}
