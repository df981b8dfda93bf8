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
