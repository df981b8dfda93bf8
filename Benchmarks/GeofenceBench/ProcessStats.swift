#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Monotonic wall-clock time in seconds.
func monotonicSeconds() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) * 1e-9
}

/// Peak resident set size of this process so far, in MiB (Linux `ru_maxrss` is in KiB).
func peakRSSMegabytes() -> Double {
    var usage = rusage()
    #if os(Linux)
    getrusage(RUSAGE_SELF.rawValue, &usage)
    #else
    getrusage(RUSAGE_SELF, &usage)
    #endif
    #if os(Linux)
    return Double(usage.ru_maxrss) / 1024
    #else
    return Double(usage.ru_maxrss) / (1024 * 1024)
    #endif
}

/// Writes a line to standard error (progress and diagnostics never go to stdout).
func printError(_ s: String) {
    let line = s + "\n"
    _ = line.withCString { write(2, $0, strlen($0)) }
}

/// True when this binary was built without optimisation (numbers from it are meaningless).
var isDebugBuild: Bool {
    #if DEBUG
    return true
    #else
    return false
    #endif
}
