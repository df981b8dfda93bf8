#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A file opened for writing with a large in-memory buffer: callers append bytes to
/// ``buffer`` and call ``flushIfFull()``; ``close()`` writes the rest.
/// Not thread-safe; one writer per file.
public final class ByteFileWriter {
    /// Pending bytes; appended to by callers.
    public var buffer: [UInt8] = []
    public let path: String
    private var descriptor: Int32
    /// Flush threshold in bytes (1 MiB: large enough that the syscall cost vanishes).
    private let threshold = 1 << 20

    /// Opens (creating or truncating) `path`.
    public init(path: String) throws(WorkloadIOError) {
        self.path = path
        descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        if descriptor < 0 { throw .cannotOpen(path: path, reason: String(cString: strerror(errno))) }
        buffer.reserveCapacity(threshold + 4096)
    }

    /// Writes the buffer out when it has grown past the threshold.
    @inlinable
    public func flushIfFull() throws(WorkloadIOError) {
        if buffer.count >= 1 << 20 { try flush() }
    }

    public func flush() throws(WorkloadIOError) {
        var offset = 0
        while offset < buffer.count {
            let written = buffer.withUnsafeBytes { raw in
                write(descriptor, raw.baseAddress! + offset, raw.count - offset)
            }
            if written < 0 {
                if errno == EINTR { continue }
                throw .writeFailed(path: path, reason: String(cString: strerror(errno)))
            }
            offset += written
        }
        buffer.removeAll(keepingCapacity: true)
    }

    /// Flushes and closes the file. Further use is an error.
    public func close() throws(WorkloadIOError) {
        try flush()
        if descriptor >= 0 {
            #if canImport(Glibc)
            let rc = Glibc.close(descriptor)
            #elseif canImport(Musl)
            let rc = Musl.close(descriptor)
            #else
            let rc = Darwin.close(descriptor)
            #endif
            descriptor = -1
            if rc != 0 { throw .writeFailed(path: path, reason: String(cString: strerror(errno))) }
        }
    }

    deinit {
        if descriptor >= 0 { try? close() }
    }
}

/// Errors of workload reading and writing; each names the file and, for bad rows, the line
/// and column.
public enum WorkloadIOError: Error, Equatable, Sendable, CustomStringConvertible {
    case cannotOpen(path: String, reason: String)
    case writeFailed(path: String, reason: String)
    case badRow(path: String, line: Int, column: String, message: String)
    case missingColumn(path: String, column: String)
    case lengthMismatch(path: String, expected: Int, found: Int)
    /// A fence id that an earlier row (`firstLine`) already has.
    case duplicateID(path: String, id: Int32, firstLine: Int, line: Int)

    public var description: String {
        switch self {
        case let .cannotOpen(path, reason):
            // FastCSV's reason already names the file ("cannot open PATH: why"); don't say it twice.
            return reason.hasPrefix("cannot open") ? reason : "cannot open \(path): \(reason)"
        case let .writeFailed(path, reason): return "\(path): write failed: \(reason)"
        case let .badRow(path, line, column, message): return "\(path):\(line):\(column): \(message)"
        case let .missingColumn(path, column): return "\(path):1: missing column '\(column)' in the header"
        case let .lengthMismatch(path, expected, found):
            return "\(path): has \(found) rows but fixes.csv has \(expected); row k must be the truth of fix k"
        case let .duplicateID(path, id, firstLine, line):
            return "\(path):\(line):id: fence id \(id) repeats line \(firstLine)"
        }
    }
}
