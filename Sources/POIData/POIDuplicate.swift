/// Two rows with the same (osm_type, osm_id): the later row at `line` repeats the one at
/// `firstLine`. The catalog keeps the first and drops the repeat (unless asked to keep both).
public struct POIDuplicate: Hashable, Sendable {
    public var osmType: OSMElementType
    public var osmID: Int64
    public var firstLine: Int
    public var line: Int

    public init(osmType: OSMElementType, osmID: Int64, firstLine: Int, line: Int) {
        self.osmType = osmType
        self.osmID = osmID
        self.firstLine = firstLine
        self.line = line
    }
}
