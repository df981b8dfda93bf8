/// `geofence-bench stab`: DESIGN.md's contract (filled in when the indexes land).
struct StabCommand {
    static let help = """
    geofence-bench stab --fences F --fixes X [--index packed|dynamic|cells|brute] [--threads N] [--reps R] [--json]
      For every fix, find every fence containing it (great circle, R = 6,371,008.8 m, boundary inclusive);
      prints hits and the checksum sum(fix_index * 1000003 + fence_id) (wrapping UInt64).
    """

    static func run(_ args: inout Arguments) throws(BenchError) {
        throw .failed("stab is not implemented yet")
    }
}

struct SuiteCommand {
    static func run(_ args: inout Arguments) throws(BenchError) {
        throw .failed("the suite is not implemented yet")
    }
}
