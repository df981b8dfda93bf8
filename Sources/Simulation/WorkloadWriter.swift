/// Writes a workload as the CSV files of DESIGN.md: `fences.csv`, `fixes.csv` and, when the
/// stream carries the truth, `truth.csv`, with the decimals `make_workload.py` uses.
public enum WorkloadWriter {
    public static func write(_ workload: Workload, toDirectory directory: String) throws(WorkloadIOError) {
        try writeFences(workload.fences, path: directory + "/fences.csv")
        try writeFixes(workload.fixes, path: directory + "/fixes.csv")
        if workload.fixes.hasTruth { try writeTruth(workload.fixes, path: directory + "/truth.csv") }
    }

    public static func writeFences(_ fences: [WorkloadFence], path: String) throws(WorkloadIOError) {
        let out = try ByteFileWriter(path: path)
        out.buffer.append(contentsOf: Array("id,lat,lon,radius_m,poi_id,tier\n".utf8))
        for f in fences {
            DecimalFormatting.append(Int64(f.id), to: &out.buffer)
            out.buffer.append(44)  // ','
            DecimalFormatting.append(f.latitude, decimals: 7, to: &out.buffer)
            out.buffer.append(44)
            DecimalFormatting.append(f.longitude, decimals: 7, to: &out.buffer)
            out.buffer.append(44)
            DecimalFormatting.append(f.radius, decimals: 3, to: &out.buffer)
            out.buffer.append(44)
            DecimalFormatting.append(Int64(f.poiID), to: &out.buffer)
            out.buffer.append(44)
            DecimalFormatting.append(Int64(f.tier), to: &out.buffer)
            out.buffer.append(10)  // '\n'
            try out.flushIfFull()
        }
        try out.close()
    }

    public static func writeFixes(_ fixes: FixStream, path: String) throws(WorkloadIOError) {
        let out = try ByteFileWriter(path: path)
        out.buffer.append(contentsOf: Array("device,t,lat,lon,accuracy_m\n".utf8))
        for k in 0..<fixes.count {
            DecimalFormatting.append(Int64(fixes.device[k]), to: &out.buffer)
            out.buffer.append(44)
            DecimalFormatting.append(fixes.time[k], decimals: 3, to: &out.buffer)
            out.buffer.append(44)
            DecimalFormatting.append(fixes.latitude[k], decimals: 7, to: &out.buffer)
            out.buffer.append(44)
            DecimalFormatting.append(fixes.longitude[k], decimals: 7, to: &out.buffer)
            out.buffer.append(44)
            DecimalFormatting.append(fixes.accuracy[k], decimals: 1, to: &out.buffer)
            out.buffer.append(10)
            try out.flushIfFull()
        }
        try out.close()
    }

    public static func writeTruth(_ fixes: FixStream, path: String) throws(WorkloadIOError) {
        let out = try ByteFileWriter(path: path)
        out.buffer.append(contentsOf: Array("true_lat,true_lon\n".utf8))
        for k in 0..<fixes.count {
            DecimalFormatting.append(fixes.trueLatitude[k], decimals: 7, to: &out.buffer)
            out.buffer.append(44)
            DecimalFormatting.append(fixes.trueLongitude[k], decimals: 7, to: &out.buffer)
            out.buffer.append(10)
            try out.flushIfFull()
        }
        try out.close()
    }
}
