import Geodesy

extension LatLng {
    /// A validated position from a row's two fields; the error names the offending column.
    init(row latitude: Double, _ longitude: Double, latColumn: String, lonColumn: String) throws(RowError) {
        do {
            try self.init(latitude: latitude, longitude: longitude)
        } catch {
            throw RowError(column: error.field == "lat" ? latColumn : lonColumn, message: error.description)
        }
    }
}
