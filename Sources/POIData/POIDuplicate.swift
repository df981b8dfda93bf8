/// Two rows with the same (osm_type, osm_id): the later row at `line` repeats the one at
/// `firstLine`. The catalog keeps the first and drops the repeat (unless asked to keep both).
public struct POIDuplicate: Hashable, Sendable {
    /// OSM element type of the repeated key.
    public var osmType: OSMElementType
    /// OSM element id of the repeated key.
    public var osmID: Int64
    /// Line of the first row with the key.
    public var firstLine: Int
    /// Line of the repeat.
    public var line: Int

    /// A repeat of (`osmType`, `osmID`) on `line`, first seen on `firstLine`.
    public init(osmType: OSMElementType, osmID: Int64, firstLine: Int, line: Int) {
        self.osmType = osmType
        self.osmID = osmID
        self.firstLine = firstLine
        self.line = line
    }
}
