#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `value` with `decimals` digits after the point (for tables and JSON).
func formatFixed(_ value: Double, _ decimals: Int) -> String {
    guard value.isFinite else { return value.isNaN ? "NaN" : (value > 0 ? "inf" : "-inf") }
    var buffer = [CChar](repeating: 0, count: 64)
    _ = withVaList([value]) { vsnprintf(&buffer, 64, "%.\(decimals)f", $0) }
    return buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
}

/// Creates a directory and its parents (like `mkdir -p`).
func makeDirectory(_ path: String) throws(BenchError) {
    var prefix = path.hasPrefix("/") ? "/" : ""
    for part in path.split(separator: "/") {
        prefix += part + "/"
        if mkdir(prefix, 0o755) != 0 && errno != EEXIST {
            throw .failed("cannot create directory \(prefix): \(String(cString: strerror(errno)))")
        }
    }
}
