#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension GeoJSONReader {
    /// A reader over the file at `path`.
    /// - Throws: ``GeoJSONError`` (path `$`, line 0) when the file cannot be opened or read.
    public init(path: String) throws(GeoJSONError) {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else {
            throw GeoJSONError(
                message: "cannot open \(path): \(String(cString: strerror(errno)))", path: "$",
                featureIndex: nil, line: 0, column: 0)
        }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                throw GeoJSONError(
                    message: "cannot read \(path): \(String(cString: strerror(errno)))", path: "$",
                    featureIndex: nil, line: 0, column: 0)
            }
            if n == 0 { break }
            bytes.append(contentsOf: chunk[0..<n])
        }
        self.init(bytes: bytes)
    }
}
