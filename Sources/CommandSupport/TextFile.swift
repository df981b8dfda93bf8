import Foundation

import FastCSV
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
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

    /// Writes `text` to the existing non-regular file `path` (a device, a pipe) in place,
    /// through FastCSV's writer, which checks every `write(2)` and the close.
    static func writeInPlace(_ text: String, to path: String) throws(WriteError) {
        do {
            let writer = try CSVWriter(path: path)
            writer.writeRaw(text)
            try writer.close()
        } catch {
            throw WriteError(description: error.message.hasPrefix(path) ? error.message : "\(path): \(error.message)")
        }
    }
}
