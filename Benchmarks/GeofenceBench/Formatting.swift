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

/// Rows of cells as a fixed-width text table: the first column left-aligned, the others
/// right-aligned, columns two spaces apart. Every row has the header's number of cells.
func renderTable(_ rows: [[String]]) -> String {
    guard let header = rows.first else { return "" }
    let widths = (0..<header.count).map { c in rows.map { $0[c].count }.max()! }
    return rows.map { row in
        row.enumerated().map { c, cell in
            let pad = String(repeating: " ", count: widths[c] - cell.count)
            return c == 0 ? cell + pad : pad + cell
        }.joined(separator: "  ")
    }.joined(separator: "\n")
}
