#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Clocks and memory of the running process, for timing in the executables (never in tests).
public enum ProcessStats {
    /// Monotonic wall-clock time in seconds since the first call (use differences): the
    /// standard library's `ContinuousClock`, the one wall clock of every module.
    public static func monotonicSeconds() -> Double {
        let elapsed = origin.duration(to: .now).components
        return Double(elapsed.seconds) + Double(elapsed.attoseconds) * 1e-18
    }

    /// The instant `monotonicSeconds()` counts from.
    private static let origin = ContinuousClock.now

    /// CPU time of the calling thread in seconds: unaffected by other processes on a shared
    /// machine, so the fair figure when wall time counts their turns on the core.
    public static func threadCPUSeconds() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) * 1e-9
    }

    /// Peak resident set size of this process so far, in MiB (Linux reports KiB, Darwin bytes).
    public static func peakRSSMegabytes() -> Double {
        var usage = rusage()
        #if os(Linux)
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Double(usage.ru_maxrss) / 1024
        #else
        getrusage(RUSAGE_SELF, &usage)
        return Double(usage.ru_maxrss) / (1024 * 1024)
        #endif
    }

    /// Writes `line` and a newline to standard error, unbuffered (progress and diagnostics
    /// never go to standard output).
    public static func printError(_ line: String) {
        var bytes = Array((line + "\n").utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeMutableBytes { write(2, $0.baseAddress! + offset, $0.count - offset) }
            if written < 0 && errno == EINTR { continue }
            if written <= 0 { return }
            offset += written
        }
    }
}
