import FastCSV
import Testing

/// The reader's record limit: a file without line breaks fails in bounded memory at the line
/// where the long record starts, and messages quote a bounded prefix of a field.
@Suite struct CSVRecordLimitTests {
    @Test(arguments: [1, 7, 4_096, 65_536])
    func aRecordPastTheLimitFailsAtItsFirstLine(chunkSize: Int) throws {
        let text = "a,b\n1,2\n\n" + String(repeating: "9", count: 300) + "\n3,4\n"
        let reader = CSVReader(bytes: Array(text.utf8), chunkSize: chunkSize, maxRecordBytes: 100)
        #expect(reader.maxRecordBytes == 100)
        #expect(try reader.nextRecord()?.count == 2)
        #expect(try reader.nextRecord()?.line == 2)
        #expect {
            try reader.nextRecord()
        } throws: { error in
            guard let e = error as? CSVError else { return false }
            return e.kind == .recordTooLong && e.line == 4 && e.formatted(source: "f.csv").hasPrefix("f.csv:4: ")
        }
    }

    @Test func recordsUpToTheLimitAreRead() throws {
        let field = String(repeating: "x", count: 90)
        let reader = CSVReader(bytes: Array("\"\(field)\n\(field)\"\n".utf8), chunkSize: 16, maxRecordBytes: 200)
        #expect(try reader.nextRecord()?.string(at: 0) == field + "\n" + field)
        #expect(CSVReader(string: "").maxRecordBytes == CSVReader.defaultMaxRecordBytes)
    }

    /// A row shorter than its header is bad input: the typed accessors answer nil (or throw
    /// `.fieldCount` at the row's line) for a field the record does not have, instead of trapping
    /// (`geofence contains` with a points row `a` died of SIGILL).
    @Test func fieldsPastTheRecordAreMissingNotATrap() throws {
        let reader = CSVReader(string: "point,lat,lon\na\n")
        _ = try reader.nextRecord()
        let record = try #require(try reader.nextRecord())
        #expect(record.count == 1)
        #expect(record.double(at: 1) == nil)
        #expect(record.int64(at: 2) == nil)
        #expect(record.uint64(at: -1) == nil)
        #expect(record.lossyString(at: 5) == "")
        #expect(try record.string(at: 0) == "a")
        #expect {
            try record.string(at: 2)
        } throws: { error in
            guard let e = error as? CSVError else { return false }
            return e.kind == .fieldCount && e.line == 2 && e.column == 3
        }
    }

    @Test func messagesQuoteABoundedPrefix() {
        #expect(MessageText.clipped(String(repeating: "é", count: 100)).utf8.count <= MessageText.limit + 3)
        #expect(MessageText.clipped("short") == "short")
        let bytes: [UInt8] = Array(repeating: 0x39, count: 1 << 20)
        bytes.withUnsafeBufferPointer { #expect(MessageText.clipped($0) == String(repeating: "9", count: MessageText.limit) + "...") }
    }
}
