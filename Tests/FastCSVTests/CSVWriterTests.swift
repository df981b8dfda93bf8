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
