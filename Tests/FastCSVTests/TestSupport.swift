import Foundation
@testable import FastCSV

/// The package's SplitMix64 (Geodesy.SplitMix64), repeated here because FastCSV stands alone
/// and its test target depends on FastCSV only. Same constants, same sequence.
struct TestRNG {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    mutating func nextUnit() -> Double { Double(next() >> 11) * 0x1.0p-53 }
    mutating func below(_ n: Int) -> Int { Int(next() % UInt64(n)) }
}

/// A record copied out of the reader.
struct Row: Equatable, CustomStringConvertible {
    var line: Int
    var fields: [String]
    var description: String { "\(line):\(fields)" }
}

/// Reads every record of `bytes` with the given chunk size, as strings.
func readAll(_ bytes: [UInt8], chunkSize: Int = CSVReader.defaultChunkSize) throws -> [Row] {
    let reader = CSVReader(bytes: bytes, chunkSize: chunkSize)
    var rows: [Row] = []
    while let record = try reader.nextRecord() {
        rows.append(Row(line: record.line, fields: try record.fields))
    }
    return rows
}

func readAll(_ text: String, chunkSize: Int = CSVReader.defaultChunkSize) throws -> [Row] {
    try readAll(Array(text.utf8), chunkSize: chunkSize)
}

/// The error thrown while reading `text` in full, if any.
func readError(_ text: String, chunkSize: Int = CSVReader.defaultChunkSize) -> CSVError? {
    do {
        _ = try readAll(text, chunkSize: chunkSize)
        return nil
    } catch let error as CSVError {
        return error
    } catch {
        return nil
    }
}

/// A file of the package's malformed-CSV set, `Tests/Fixtures/poi_bad/` (shared with the POI
/// loader's tests; see the README there).
func fixtureURL(_ name: String) -> URL {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/poi_bad/\(name)")
}

func fixtureBytes(_ name: String) throws -> [UInt8] {
    Array(try Data(contentsOf: fixtureURL(name)))
}

/// Calls `body` with the bytes of `text` as a field.
func withField<R>(_ text: String, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
    let bytes = Array(text.utf8)
    return bytes.withUnsafeBufferPointer(body)
}

/// The chunk sizes every structural test runs with.
let chunkSizes = [1, 2, 3, 7, 64, CSVReader.defaultChunkSize]
