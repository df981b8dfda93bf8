extension LatLngBox {
    /// The smallest box holding every point: latitudes by minimum and maximum; longitudes by the
    /// narrowest arc that holds them all, which crosses the antimeridian (`west > east`) when
    /// that is narrower (points on both sides of ±180 give a box a few degrees wide, not one
    /// that spans the globe). ``empty`` for no points.
    ///
    /// The longitude arc is the complement of the largest gap between consecutive sorted
    /// longitudes on the circle.
    /// - Complexity: O(n log n) for n points (the longitudes are sorted once).
    public static func bounding(_ points: some Collection<LatLng>) -> LatLngBox {
        guard !points.isEmpty else { return .empty }
        var south = 90.0, north = -90.0
        var longitudes: [Double] = []
        longitudes.reserveCapacity(points.count)
        for p in points {
            south = Swift.min(south, p.latitude)
            north = Swift.max(north, p.latitude)
            longitudes.append(p.longitude == 180 ? -180 : p.longitude)  // one meridian, one value
        }
        longitudes.sort()
        // The gap that wraps from the last longitude round to the first, then the inner gaps.
        var gapStart = longitudes.count - 1
        var gap = longitudes[0] + 360 - longitudes[gapStart]
        for k in 1..<longitudes.count where longitudes[k] - longitudes[k - 1] > gap {
            gap = longitudes[k] - longitudes[k - 1]
            gapStart = k - 1
        }
        // The box runs from the longitude after the gap to the one before it.
        let west = longitudes[(gapStart + 1) % longitudes.count]
        let east = longitudes[gapStart]
        return LatLngBox(south: south, north: north, west: west, east: east)
    }
}
