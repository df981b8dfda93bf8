import Foundation

/// Writing a generated document (SVG, HTML, JSON) to a file.
public enum TextFile {
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
