import CSQLite
import Foundation
import Geodesy

/// Scratch files for the store tests: a fresh directory per test, removed afterwards.
final class TestDirectory {
    let url: URL

    init(_ name: String = #function) throws {
        let clean = name.filter { $0.isLetter || $0.isNumber }
        url = FileManager.default.temporaryDirectory.appendingPathComponent(
            "responder-store-\(clean)-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    func path(_ file: String) -> String { url.appendingPathComponent(file).path }

    /// Writes `count` seeded random bytes.
    func randomFile(_ file: String, count: Int, seed: UInt64) throws -> String {
        var rng = SplitMix64(seed: seed)
        let bytes = (0..<count).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
        try Data(bytes).write(to: url.appendingPathComponent(file))
        return path(file)
    }

    func bytes(_ path: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path)) }

    /// Runs SQL on a database through the C API directly (not through the code under test).
    static func sql(_ path: String, _ statements: String) -> Int32 {
        var db: OpaquePointer?
        guard sqlite3_open(path, &db) == SQLITE_OK else { return -1 }
        defer { sqlite3_close(db) }
        return sqlite3_exec(db, statements, nil, nil, nil)
    }
}
