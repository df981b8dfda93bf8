#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Creates a directory and its parents (like `mkdir -p`).
func makeDirectory(_ path: String) throws(BenchError) {
    var prefix = path.hasPrefix("/") ? "/" : ""
    for part in path.split(separator: "/") {
        prefix += part + "/"
        if mkdir(prefix, 0o755) != 0 && errno != EEXIST {
            throw BenchError("cannot create directory \(prefix): \(String(cString: strerror(errno)))")
        }
    }
}

/// A path for a file that a command writes, reads and removes itself, unique to this
/// process: `geofence-bench-<name>-<pid>.<ext>` in `$TMPDIR` (or /tmp when unset). The
/// caller removes it on every exit path (a `defer`).
func scratchPath(_ name: String, extension ext: String) -> String {
    let directory = getenv("TMPDIR").map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
    return "\(directory)/geofence-bench-\(name)-\(getpid()).\(ext)"
}
