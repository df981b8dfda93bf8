import Geofencing

extension POICatalog {
    /// A stable text id of POI `i`: `node/123`, `way/456`, `relation/7` (its OpenStreetMap
    /// identity) when the file has type and id columns, else `poi/<index>`.
    public func placeID(at i: Int) -> String {
        if let type = osmType(at: i), let id = osmID(at: i) { return "\(type.rawValue)/\(id)" }
        return "poi/\(i)"
    }

    /// POI `i` as a Geofencing `Place` (id from ``placeID(at:)``).
    public func place(at i: Int) -> Place {
        Place(id: placeID(at: i), center: locations[i])
    }
}
