import Foundation

#if canImport(Glibc)
import Glibc
private let systemWrite = Glibc.write
#elseif canImport(Musl)
import Musl
private let systemWrite = Musl.write
#elseif canImport(Darwin)
import Darwin
private let systemWrite = Darwin.write
#endif

/// Writing a generated document (SVG, HTML, JSON) to a file, and reading a small input document
/// (a JSON results file) with a size limit.
public enum TextFile {
    /// The largest document ``read(_:limit:)`` reads by default: 64 MiB.
    public static let defaultReadLimit = 64 << 20

    /// A file that could not be read, naming it.
    public struct ReadError: Error, CustomStringConvertible {
        /// `PATH: reason`.
        public var description: String
    }

    /// The bytes of the regular file at `path`, at most `limit` of them: a device (`/dev/zero`),
    /// a directory, a pipe or a larger file is refused before anything is read.
    public static func read(_ path: String, limit: Int = defaultReadLimit) throws(ReadError) -> Data {
        let attributes: [FileAttributeKey: Any]
        do {
            attributes = try FileManager.default.attributesOfItem(atPath: path)
        } catch {
            throw ReadError(description: "\(path): cannot be read (no such file, or no permission)")
        }
        guard attributes[.type] as? FileAttributeType == .typeRegular else {
            throw ReadError(description: "\(path): not a regular file")
        }
        let size = (attributes[.size] as? NSNumber)?.intValue ?? 0
        guard size <= limit else {
            throw ReadError(description: "\(path): \(size) bytes, more than the limit of \(limit)")
        }
        do {
            return try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw ReadError(description: "\(path): cannot be read")
        }
    }

    /// A file that could not be written, naming it.
    public struct WriteError: Error, CustomStringConvertible {
        /// `PATH: reason`.
        public var description: String
    }

    /// Writes `text` as UTF-8 to `path`. A regular file (or a new one) is replaced atomically:
    /// a reader sees the old bytes or the new, never a part. A symbolic link is followed (the
    /// file it names is replaced, the link stays). Any other existing file (a device such as
    /// `/dev/stdout` or `/dev/full`, a pipe) is written in place and never replaced by a regular
    /// file: renaming over `/dev/full` had turned the device into a file and hidden the error.
    /// - Throws: ``WriteError`` naming `path` for any failed open, write or close (`ENOSPC` on
    ///   `/dev/full`, a directory, a missing directory).
    public static func write(_ text: String, to path: String) throws(WriteError) {
        var target = path
        var status = stat()
        if stat(path, &status) == 0 {
            if status.st_mode & S_IFMT != S_IFREG {
                if status.st_mode & S_IFMT == S_IFDIR { throw WriteError(description: "\(path): is a directory") }
                try writeInPlace(text, to: path)
                return
            }
            target = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
        }
        do {
            try text.write(toFile: target, atomically: true, encoding: .utf8)
        } catch {
            throw WriteError(description: "\(path): \(error.localizedDescription)")
        }
    }

    /// Writes `text` to the existing non-regular file `path` with `write(2)`, checking every call.
    static func writeInPlace(_ text: String, to path: String) throws(WriteError) {
        let fd = open(path, O_WRONLY | O_TRUNC)
        guard fd >= 0 else { throw WriteError(description: "\(path): cannot open for writing: \(String(cString: strerror(errno)))") }
        var failure: String?
        var bytes = Array(text.utf8)
        bytes.withUnsafeMutableBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let n = systemWrite(fd, buffer.baseAddress! + offset, buffer.count - offset)
                if n < 0 {
                    if errno == EINTR { continue }
                    failure = String(cString: strerror(errno))
                    return
                }
                offset += n
            }
        }
        if close(fd) != 0 && failure == nil { failure = String(cString: strerror(errno)) }
        if let failure { throw WriteError(description: "\(path): write failed: \(failure)") }
    }
}
