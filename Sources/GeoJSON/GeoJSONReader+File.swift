#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension GeoJSONReader {
    /// A reader over the file at `path`, which reads the file as it goes: the bytes in memory
    /// are those of the feature being read (and of the chunk it ends in), whatever the file's
    /// size. The top-level members around `features` are read whole when they are reached.
    /// - Throws: ``GeoJSONError`` (path `$`, line 0) when the file cannot be opened or read;
    ///   a later read error is thrown the same way by ``next()``.
    public init(path: String) throws(GeoJSONError) {
        try self.init(path: path, chunkSize: 1 << 16)
    }

    /// `init(path:)` reading `chunkSize` bytes at a time (the tests use small chunks).
    init(path: String, chunkSize: Int) throws(GeoJSONError) {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else {
            throw GeoJSONError(
                message: "cannot open \(path): \(String(cString: strerror(errno)))", path: "$",
                featureIndex: nil, line: 0, column: 0)
        }
        self.init(bytes: [])
        source = FileSource(fd: fd, path: path, chunkSize: max(1, chunkSize))
        // The first chunk now, so that a file that cannot be read fails here.
        try readChunk()
    }
}

/// The open file a ``GeoJSONReader`` reads from, closed when the last copy goes.
final class FileSource {
    let fd: Int32
    let path: String
    let chunkSize: Int
    /// Whether `read` returned 0.
    var atEnd = false

    init(fd: Int32, path: String, chunkSize: Int) {
        self.fd = fd
        self.path = path
        self.chunkSize = chunkSize
    }

    deinit { close(fd) }

    /// Appends up to `chunkSize` bytes to `bytes`; sets `atEnd` at the end of the file.
    func append(to bytes: inout [UInt8]) throws(GeoJSONError) {
        let old = bytes.count, fd = fd, chunkSize = chunkSize
        bytes.append(contentsOf: repeatElement(0, count: chunkSize))
        let n = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress! + old, chunkSize) }
        bytes.removeLast(chunkSize - max(n, 0))
        if n < 0 {
            throw GeoJSONError(
                message: "cannot read \(path): \(String(cString: strerror(errno)))", path: "$",
                featureIndex: nil, line: 0, column: 0)
        }
        if n == 0 { atEnd = true }
    }
}
