import Foundation
import GeoCells
import Geodesy
import JSON
import Testing

@testable import GeoJSON

/// A reader over a file reads it a chunk at a time: it must read exactly what a reader over the
/// same bytes reads (features, their places, every error and its line and column) whatever the
/// chunk size, and hold about one feature in memory.
@Suite struct GeoJSONFileWindowTests {
    /// A FeatureCollection of `count` squares laid out at random (blanks, line breaks, member
    /// order), with strings that hold brackets, quotes and escapes, and foreign members before
    /// and after `features`; feature `broken` (if any) gets `breakage` in place of its geometry.
    static func document(count: Int, seed: UInt64, broken: Int? = nil, breakage: String = "") -> String {
        var rng = SplitMix64(seed: seed)
        func blank() -> String { ["", " ", "\n", "\n  ", "\t", " \r\n "][Int(rng.next() % 6)] }
        var text = "{" + blank() + #""name": "a } ] \" [ { \\ \u00e9","# + blank()
        text += #""bbox": [0, 0, 100, 100],"# + blank() + #""type":"# + blank() + #""FeatureCollection","# + blank()
        text += #""features":"# + blank() + "[" + blank()
        for k in 0..<count {
            let x = Double(k % 100), y = Double(k / 100)
            let ring = "[[\(x), \(y)],\(blank())[\(x + 0.5), \(y)], [\(x + 0.5), \(y + 0.5)],\(blank())[\(x), \(y + 0.5)], [\(x), \(y)]]"
            let geometry = k == broken ? breakage : #"{"type": "Polygon","# + blank() + #""coordinates": [\#(ring)]}"#
            var members = [
                #""type":\#(blank())"Feature""#, #""id": \#(k % 3 == 0 ? "\"f\(k)\"" : "\(k)")"#,
                #""geometry":\#(blank())\#(geometry)"#,
                #""properties": {"note": "}{[\"\#(String(repeating: "x", count: Int(rng.next() % 40)))", "n": [\#(k), null, true]}"#
            ]
            members.shuffle(using: &rng)
            text += (k == 0 ? "" : "," + blank()) + "{" + blank() + members.joined(separator: "," + blank()) + blank() + "}"
        }
        text += blank() + "]," + blank() + #""foreign": {"deep": [[["]"]]]}"# + blank() + "}" + blank()
        return text
    }

    static func write(_ text: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("window-\(UUID().uuidString).geojson").path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// What a reader yields, compared field by field (the polygon by its loops and area).
    struct Read: Equatable {
        var features: [String] = []
        var error: GeoJSONError?
        /// The most bytes the reader's window held after a feature.
        var peakWindow = 0
    }

    static func read(_ reader: inout GeoJSONReader) -> Read {
        var out = Read()
        do {
            while let f = try reader.next() {
                out.features.append(
                    "\(f.index) \(f.id) \(f.path) \(f.line):\(f.column) \(f.polygon.loopCount) \(f.polygon.area) \(f.properties)")
                out.peakWindow = max(out.peakWindow, reader.tokenizer.bytes.count)
            }
        } catch { out.error = error }
        return out
    }

    static func compare(_ text: String, chunks: [Int]) throws -> [Read] {
        var whole = GeoJSONReader(bytes: Array(text.utf8))
        let expected = read(&whole)
        let path = try write(text)
        defer { try? FileManager.default.removeItem(atPath: path) }
        var reads: [Read] = []
        for chunk in chunks {
            var reader = try GeoJSONReader(path: path, chunkSize: chunk)
            var got = read(&reader)
            #expect(got.features == expected.features, "chunk \(chunk)")
            #expect(got.error == expected.error, "chunk \(chunk): \(String(describing: got.error)) against \(String(describing: expected.error))")
            got.peakWindow = max(got.peakWindow, reader.tokenizer.bytes.count)
            reads.append(got)
        }
        return reads
    }

    @Test(arguments: [UInt64(1), 2, 3])
    func aFileReadsAsItsBytesAtEveryChunkSize(seed: UInt64) throws {
        let text = Self.document(count: 400, seed: seed)
        let reads = try Self.compare(text, chunks: [1, 2, 3, 7, 64, 1000, 1 << 16])
        #expect(reads.allSatisfy { $0.features.count == 400 && $0.error == nil }, "\(String(describing: reads.first?.error))")
        // About one feature (under 400 bytes each here) and one chunk, not the 90 kB document.
        #expect(text.utf8.count > 90_000)
        #expect(reads[4].peakWindow < 64 + 2 * 400 + 64, "\(reads[4].peakWindow)")
        #expect(reads[5].peakWindow < 1000 + 2 * 400 + 1000, "\(reads[5].peakWindow)")
    }

    /// An error deep in the file is named at the same line, column and path as over the bytes.
    @Test(arguments: [
        #"{"type": "Polygon", "coordinates": [[[0, 0], [1, 0], [1, 1], [0, 1]]]}"#,  // open ring
        #"{"type": "Polygon", "coordinates": [[[0, 0], [1, 0], [1, 1], [0, 1], [0, 0]]}"#,  // unbalanced
        #"{"type": "Polygon", "coordinates": [[[0, 0], [1, 0], [1, 1], [0, 1], [0, 0]]], "x": "unterminated}"#,
        #"{"type": "Polygon", "coordinates": [[[0, 0], [2, 2], [2, 0], [0, 2], [0, 0]]]}"#,  // self-intersection
        #"{"type": "Polygon", "coordinates": [[[0, 0], [1, 0], [1, 1], [0, 1], [0, 0e]]]}"#
    ])
    func anErrorDeepInAFileIsPlacedAsOverTheBytes(breakage: String) throws {
        let text = Self.document(count: 300, seed: 9, broken: 250, breakage: breakage)
        let reads = try Self.compare(text, chunks: [1, 5, 64, 4096])
        #expect(reads.allSatisfy { $0.error != nil && $0.features.count <= 250 })
    }

    /// A file cut anywhere fails as the same bytes fail; so does text after the end.
    @Test func aTruncatedFileFailsAsItsBytes() throws {
        let text = Self.document(count: 40, seed: 4)
        // Cut before the closing brace (blanks after it may end a whole document).
        let bytes = Array(text.utf8[..<text.utf8.lastIndex(of: UInt8(ascii: "}"))!])
        for cut in stride(from: 1, to: bytes.count, by: 97) + [bytes.count - 1, bytes.count - 2] {
            let reads = try Self.compare(String(decoding: bytes[..<cut], as: UTF8.self), chunks: [3, 256])
            #expect(reads.allSatisfy { $0.error != nil }, "cut at \(cut)")
        }
        _ = try Self.compare(text + " x", chunks: [1, 64])
        _ = try Self.compare(text + " \n ", chunks: [1, 64])
    }

    /// A lone Feature and an empty collection, at one byte a time.
    @Test func aLoneFeatureAndAnEmptyCollection() throws {
        let lone = #"  {"id": 3, "geometry": {"type": "Polygon", "coordinates": [[[0, 0], [1, 0], [1, 1], [0, 0]]]}, "type": "Feature"}"#
        #expect(try Self.compare(lone, chunks: [1, 2, 4096]).allSatisfy { $0.features.count == 1 && $0.error == nil })
        let empty = #"{"features": [ ], "type": "FeatureCollection"}"#
        #expect(try Self.compare(empty, chunks: [1, 4096]).allSatisfy { $0.features.isEmpty && $0.error == nil })
    }
}
