import Foundation
import Testing
@testable import FastCSV

@Suite struct CSVWriterTests {
    @Test func quotesOnlyWhenNeeded() {
        let writer = CSVWriter(collectingWithCapacity: 64)
        writer.writeRecord(["a", "b,c", "say \"hi\"", "two\nlines", ""])
        writer.writeField(0.1)
        writer.writeField(-0.0)
        writer.writeField(UInt64.max)
        writer.writeField(Int64.min)
        writer.endRecord()
        #expect(writer.text == "a,\"b,c\",\"say \"\"hi\"\"\",\"two\nlines\",\n0.1,-0.0,18446744073709551615,-9223372036854775808\n")
    }

    @Test func roundTripsThroughTheReader() throws {
        let writer = CSVWriter(collectingWithCapacity: 64)  // small buffer: many flushes
        var rng = TestRNG(seed: 3)
        var expected: [Row] = []
        for i in 0..<200 {
            let fields = (0..<3).map { _ in ["x", ",", "\"", "\r\n", "é", "12.5"][rng.below(6)] + String(i) }
            writer.writeRecord(fields)
            expected.append(Row(line: 0, fields: fields))
        }
        let rows = try readAll(writer.bytes, chunkSize: 7)
        #expect(rows.map(\.fields) == expected.map(\.fields), "seed 3")
    }
}

@Suite struct CSVFileWriterTests {
    func temporaryPath(_ name: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("csvw-\(UUID().uuidString)-\(name)").path
    }

    @Test func writesAFileWithFixedDecimalsAndClosesIt() throws {
        let path = temporaryPath("out.csv")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let out = try CSVWriter(path: path, capacity: 64)  // small buffer: several flushes
        out.writeRecord(["id", "lat"])
        for k in 0..<100 {
            out.writeField(Int64(k - 50))
            out.writeField(Double(k) / 3, decimals: 7)
            out.endRecord()
        }
        out.flush()
        let counted = out.bytesWritten
        try out.close()
        try out.close()  // a second close does nothing
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.utf8.count == counted)
        let lines = text.split(separator: "\n")
        #expect(lines.count == 101)
        #expect(lines[1] == "-50,0.0000000")
        #expect(lines[2] == "-49,0.3333333")
        #expect(lines[100] == "49,33.0000000")
    }

    @Test func anUnopenableFileIsATypedErrorNamingIt() {
        let path = "/nonexistent-dir-\(UUID().uuidString)/out.csv"
        #expect {
            _ = try CSVWriter(path: path)
        } throws: { error in
            guard let e = error as? CSVError else { return false }
            return e.kind == .io && e.message.hasPrefix("cannot open \(path) for writing: ")
        }
    }

    @Test func writingAfterCloseIsReportedNotLost() throws {
        let path = temporaryPath("late.csv")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let out = try CSVWriter(path: path)
        out.writeRecord(["a"])
        try out.close()
        out.writeRecord(["b"])
        out.flush()
        #expect(out.writeError == "written after close")
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "a\n")
    }

    @Test func memoryWriterFieldsOfEveryKind() {
        let out = CSVWriter(collectingWithCapacity: 64)
        out.writeField(Int64.min)
        out.writeField(-0.5, decimals: 0)
        out.writeField(1.25, decimals: 1)
        out.writeField(Double.nan, decimals: 2)
        out.writeField(UInt64.max)
        out.endRecord()
        // printf's rounding: -0.5 is a tie (to even: -0), 1.25 is a tie (to even: 1.2).
        #expect(out.text == "-9223372036854775808,-0,1.2,nan,18446744073709551615\n")
    }
}
