extension LatLngBox {
    /// Width of the longitude span in degrees, in [0, 360] (0 for a single meridian;
    /// 360 when every longitude is inside). Meaningless for an empty box.
    @inlinable
    public var longitudeWidth: Double {
        if spansAllLongitudes { return 360 }
        return west <= east ? east - west : east - west + 360
    }

    /// True when the two boxes share at least one point (boundaries included; longitudes
    /// -180 and 180 are the same meridian). Empty boxes intersect nothing.
    @inlinable
    public func intersects(_ other: LatLngBox) -> Bool {
        if isEmpty || other.isEmpty { return false }
        guard max(south, other.south) <= min(north, other.north) else { return false }
        // Two arcs of the circle meet exactly when one contains the other's start.
        return containsLongitude(other.west) || other.containsLongitude(west)
    }

    /// The smallest box containing both boxes (latitude hull; shortest longitude arc that
    /// covers both arcs, which may cross the antimeridian). The union with an empty box is the
    /// other box.
    @inlinable
    public func union(_ other: LatLngBox) -> LatLngBox {
        if isEmpty { return other }
        if other.isEmpty { return self }
        let s = min(south, other.south), n = max(north, other.north)
        if spansAllLongitudes || other.spansAllLongitudes {
            return LatLngBox(south: s, north: n, west: -180, east: 180)
        }
        // Angles measured eastwards from self.west, in [0, 360).
        func offset(_ lng: Double) -> Double {
            let d = lng - west
            return d < 0 ? d + 360 : (d >= 360 ? d - 360 : d)
        }
        let selfWidth = longitudeWidth, otherWidth = other.longitudeWidth
        let otherStart = offset(other.west)
        // Candidate A: from self.west eastwards to other.east; candidate B: from other.west
        // eastwards to self.east. Each contains both arcs when it is at least as long as each.
        let spanA = max(selfWidth, otherStart + otherWidth)
        let selfStartFromOther = otherStart == 0 ? 0 : 360 - otherStart
        let spanB = max(otherWidth, selfStartFromOther + selfWidth)
        let width = min(spanA, spanB)
        if width >= 360 { return LatLngBox(south: s, north: n, west: -180, east: 180) }
        if spanA <= spanB {
            let east = otherStart + otherWidth > selfWidth ? other.east : self.east
            return LatLngBox(south: s, north: n, west: west, east: east)
        }
        let east = selfStartFromOther + selfWidth > otherWidth ? self.east : other.east
        return LatLngBox(south: s, north: n, west: other.west, east: east)
    }

    /// The box grown by `degrees` on every side (latitude clamped to [-90, 90]; a box that
    /// reaches a pole, or whose longitude span reaches 360°, spans all longitudes).
    /// An empty box stays empty.
    /// - Precondition: `margin >= 0`.
    @inlinable
    public func expanded(byDegrees margin: Double) -> LatLngBox {
        precondition(margin >= 0, "expanded(byDegrees:) needs a non-negative margin")
        if isEmpty { return self }
        let s = max(-90, south - margin), n = min(90, north + margin)
        if s == -90 || n == 90 || spansAllLongitudes || longitudeWidth + 2 * margin >= 360 {
            return LatLngBox(south: s, north: n, west: -180, east: 180)
        }
        var w = west - margin, e = east + margin
        if w < -180 { w += 360 }
        if e > 180 { e -= 360 }
        return LatLngBox(south: s, north: n, west: w, east: e)
    }
}
