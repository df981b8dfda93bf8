import Foundation

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

    /// Writes `text` as UTF-8 to `path`, replacing the file atomically.
    public static func write(_ text: String, to path: String) throws(WriteError) {
        do {
            try text.write(toFile: path, atomically: true, encoding: .utf8)
        } catch {
            throw WriteError(description: "\(path): \(error.localizedDescription)")
        }
    }
}
