extension WorkloadReader {
    /// Reads the kind of each device from a CSV with (at least) the columns `device,kind`, as
    /// `Data/gps/devices.csv` (`kind`: `hand-held`, `car`, `vessel`; any non-empty text is taken).
    /// - Throws: ``WorkloadIOError/badRow(path:line:column:message:)`` for a device id that is
    ///   not a whole number in `0...Int32.max`, an empty kind, or a device listed twice (naming
    ///   the earlier line); ``WorkloadIOError/missingColumn(path:column:)`` without either column.
    public static func readDeviceKinds(path: String) throws(WorkloadIOError) -> [Int32: String] {
        var kinds: [Int32: String] = [:]
        var lineOfDevice: [Int32: Int] = [:]
        try forEachRow(path: path, required: ["device", "kind"], optional: []) { (row: inout RowParser) throws(WorkloadIOError) in
            let device = try row.identifier(0)
            let line = row.record?.line ?? 0
            if let first = lineOfDevice.updateValue(line, forKey: device) {
                throw row.fail(0, "device \(device) repeats line \(first)")
            }
            let kind = row.text(1)
            guard !kind.isEmpty else { throw row.fail(1, "empty kind") }
            kinds[device] = kind
        }
        return kinds
    }
}
