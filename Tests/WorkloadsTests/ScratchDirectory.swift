import Foundation

/// Scratch files for a test: a fresh directory, removed with everything in it when the test's
/// suite instance goes (a suite keeps one as a property, so each test gets its own).
final class ScratchDirectory {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("simulation-tests-" + UUID().uuidString)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    /// Writes `text` to `name` in the directory (a new name by default) and returns its path.
    func write(_ text: String, name: String = UUID().uuidString + ".csv") throws -> String {
        let path = url.appendingPathComponent(name).path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }
}
