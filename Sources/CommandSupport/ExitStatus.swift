/// The exit statuses of both executables (`geofence` and `geofence-bench`).
public enum ExitStatus {
    /// Everything asked was done.
    public static let success: Int32 = 0
    /// Bad input data, a failed run or an I/O failure: the message names the file (and line
    /// and column) or what failed.
    public static let failure: Int32 = 1
    /// A bad command line (an unknown, missing, malformed or out-of-range option): nothing
    /// was read.
    public static let usage: Int32 = 2
}
