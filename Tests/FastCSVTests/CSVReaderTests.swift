import Foundation
import Testing
@testable import FastCSV

@Suite struct CSVReaderTests {
    @Test(arguments: chunkSizes)
    func plainRecordsLFAndCRLF(chunkSize: Int) throws {
        let expected = [Row(line: 1, fields: ["a", "b", "c"]), Row(line: 2, fields: ["1", "2", "3"])]
        #expect(try readAll("a,b,c\n1,2,3\n", chunkSize: chunkSize) == expected)
        #expect(try readAll("a,b,c\r\n1,2,3\r\n", chunkSize: chunkSize) == expected)
        #expect(try readAll("a,b,c\r\n1,2,3", chunkSize: chunkSize) == expected, "no final newline")
        #expect(try readAll("a,b,c\n1,2,3", chunkSize: chunkSize) == expected)
        #expect(try readAll("a,b,c\r1,2,3\r", chunkSize: chunkSize) == expected, "lone CR ends a record")
    }

    @Test(arguments: chunkSizes)
    func quotedFields(chunkSize: Int) throws {
        let text = "name,note\n\"Salon, parturi\",\"Freddy\"\"s\"\n\"\",\"\"\"\"\n\"multi\nline\",x\r\nlast,\"a\r\nb\"\n"
        let rows = try readAll(text, chunkSize: chunkSize)
        #expect(
            rows == [
                Row(line: 1, fields: ["name", "note"]),
                Row(line: 2, fields: ["Salon, parturi", "Freddy\"s"]),
                Row(line: 3, fields: ["", "\""]),
                Row(line: 4, fields: ["multi\nline", "x"]),
                Row(line: 6, fields: ["last", "a\r\nb"])
            ])
    }

    @Test(arguments: chunkSizes)
    func emptyFields(chunkSize: Int) throws {
        #expect(
            try readAll(",\n,,x\na,\n\"\",\n", chunkSize: chunkSize) == [
                Row(line: 1, fields: ["", ""]),
                Row(line: 2, fields: ["", "", "x"]),
                Row(line: 3, fields: ["a", ""]),
                Row(line: 4, fields: ["", ""])
            ])
        #expect(try readAll("a,", chunkSize: chunkSize) == [Row(line: 1, fields: ["a", ""])], "trailing comma at EOF")
        #expect(try readAll("\"\"", chunkSize: chunkSize) == [Row(line: 1, fields: [""])])
    }

    @Test(arguments: chunkSizes)
    func blankLinesAreSkippedButCounted(chunkSize: Int) throws {
        #expect(
            try readAll("a\n\n\r\n\rb\n\n", chunkSize: chunkSize) == [
                Row(line: 1, fields: ["a"]),
                Row(line: 5, fields: ["b"])
            ])
    }

    @Test(arguments: chunkSizes)
    func byteOrderMarkIsStripped(chunkSize: Int) throws {
        let bytes: [UInt8] = [0xEF, 0xBB, 0xBF] + Array("lat,lon\r\n1,2\r\n".utf8)
        #expect(
            try readAll(bytes, chunkSize: chunkSize) == [
                Row(line: 1, fields: ["lat", "lon"]), Row(line: 2, fields: ["1", "2"])
            ])
        // A BOM alone is an empty input; a BOM later in the file is data.
        #expect(try readAll([0xEF, 0xBB, 0xBF], chunkSize: chunkSize).isEmpty)
        let later = try readAll(Array("a\n".utf8) + [0xEF, 0xBB, 0xBF, 0x62], chunkSize: chunkSize)
        #expect(later.count == 2 && later[1].fields == ["\u{FEFF}b"])
    }

    @Test func emptyInput() throws {
        #expect(try readAll("").isEmpty)
        #expect(try readAll("\n\n").isEmpty)
        let reader = CSVReader(string: "")
        #expect(try reader.nextRecord() == nil)
        #expect(try reader.nextRecord() == nil, "stays at end")
    }

    @Test(arguments: chunkSizes)
    func unterminatedQuoteReportsTheOpeningLine(chunkSize: Int) throws {
        let error = try #require(readError("a,b\nc,\"open\nmore\nstuff,x\n", chunkSize: chunkSize))
        #expect(error.kind == .unterminatedQuote)
        #expect(error.line == 2)
        #expect(error.column == 2)
    }

    @Test(arguments: chunkSizes)
    func characterAfterClosingQuote(chunkSize: Int) throws {
        let error = try #require(readError("a,b\n\"x\nx\"y,z\n", chunkSize: chunkSize))
        #expect(error.kind == .unexpectedCharacterAfterQuote)
        #expect(error.line == 3, "the line of the offending character")
        #expect(error.column == 1)
        #expect(error.message.contains("'y'"))
        let second = try #require(readError("1,\"ab\" ,3", chunkSize: chunkSize))
        #expect(second.line == 1 && second.column == 2)
    }

    @Test func errorIsSticky() throws {
        let reader = CSVReader(string: "\"a\"b\nc\n")
        #expect(throws: CSVError.self) { try reader.nextRecord() }
        #expect(throws: CSVError.self) { try reader.nextRecord() }
    }

    @Test func quoteInsideUnquotedFieldIsData() throws {
        #expect(try readAll("ab\"c,d\n") == [Row(line: 1, fields: ["ab\"c", "d"])])
    }

    @Test func invalidUTF8IsReportedOnlyWhenStringsAreAsked() throws {
        let bytes: [UInt8] = Array("a,b\nx,".utf8) + [0xFF, 0xFE] + Array("\n".utf8)
        let reader = CSVReader(bytes: bytes)
        _ = try reader.nextRecord()
        let record = try #require(try reader.nextRecord())
        #expect(record.count == 2)
        #expect(Array(record[1]) == [0xFF, 0xFE], "raw access works")
        #expect(record.lossyString(at: 1) == "\u{FFFD}\u{FFFD}")
        do {
            _ = try record.fields
            Issue.record("expected invalid UTF-8")
        } catch {
            #expect(error.kind == .invalidUTF8)
            #expect(error.line == 2 && error.column == 2)
        }
    }

    /// Random records of awkward fields, written with RFC 4180 quoting and random line endings,
    /// read back with every chunk size: the same fields and start lines must come out.
    @Test func randomRoundTripAcrossChunkBoundaries() throws {
        let seed: UInt64 = 0x5EED_C5F0
        var rng = TestRNG(seed: seed)
        let pieces = ["", "a", "12.5", ",", "\"", "\n", "\r\n", "é", " ", "x\"y", "\r"]
        for trial in 0..<40 {
            var text = rng.below(2) == 0 ? "\u{FEFF}" : ""
            var expected: [Row] = []
            var line = 1
            let recordCount = 1 + rng.below(6)
            for _ in 0..<recordCount {
                var fields: [String] = []
                for _ in 0..<(1 + rng.below(4)) {
                    var field = ""
                    for _ in 0..<rng.below(4) { field += pieces[rng.below(pieces.count)] }
                    fields.append(field)
                }
                // A lone empty field would be a blank line, which holds no record: quote it.
                let encoded = fields.map { f -> String in
                    let special = f.isEmpty && fields.count == 1 || f.utf8.contains(where: { $0 == 0x2C || $0 == 0x22 || $0 == 0x0D || $0 == 0x0A })
                    return special ? "\"" + f.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : f
                }
                expected.append(Row(line: line, fields: fields))
                text += encoded.joined(separator: ",")
                for f in fields {
                    // Physical lines inside quoted fields: \r\n, \n and a lone \r each count once.
                    let u = Array(f.utf8)
                    for (k, b) in u.enumerated() where b == 0x0A || (b == 0x0D && (k + 1 == u.count || u[k + 1] != 0x0A)) {
                        line += 1
                    }
                }
                let endings = ["\n", "\r\n", "\r"]
                text += endings[rng.below(3)]
                line += 1
            }
            if rng.below(2) == 0 { text.removeLast() }  // no final newline (removes \r\n as one Character)
            for chunkSize in chunkSizes {
                let rows = try readAll(text, chunkSize: chunkSize)
                #expect(rows == expected, "seed \(seed) trial \(trial) chunk \(chunkSize): \(text.debugDescription)")
            }
        }
    }

    @Test(arguments: chunkSizes)
    func fixturesHaveTheExpectedStructure(chunkSize: Int) throws {
        let base = try readAll(fixtureBytes("ok_base.csv"), chunkSize: chunkSize)
        #expect(base.count == 9)
        #expect(base.allSatisfy { $0.fields.count == 9 })
        #expect(base.map(\.line) == Array(1...9))
        #expect(base[3].fields[4] == "Salon Violettiina, parturi-kampaamo")
        #expect(base[7].fields[4] == "Freddy\"s International")
        #expect(try readAll(fixtureBytes("ok_bom_crlf.csv"), chunkSize: chunkSize) == base)
        #expect(try readAll(fixtureBytes("ok_no_final_newline.csv"), chunkSize: chunkSize) == base)

        let quoted = try readAll(fixtureBytes("ok_quoted_newline.csv"), chunkSize: chunkSize)
        #expect(quoted.count == 9)
        #expect(quoted[8].line == 9 && quoted[8].fields[4] == "K-Market\nKotikontu")
        #expect(quoted.allSatisfy { $0.fields.count == 9 })

        #expect(try readAll(fixtureBytes("bad_empty.csv"), chunkSize: chunkSize).isEmpty)
        #expect(try readAll(fixtureBytes("bad_extra_field.csv"), chunkSize: chunkSize)[3].fields.count == 10)
        #expect(try readAll(fixtureBytes("bad_short_row.csv"), chunkSize: chunkSize)[2].fields.count == 8)
    }

    @Test func fixtureErrors() throws {
        do {
            _ = try readAll(fixtureBytes("bad_unterminated_quote.csv"), chunkSize: 7)
            Issue.record("expected an unterminated quote")
        } catch let error as CSVError {
            #expect(error.kind == .unterminatedQuote)
            #expect(error.line == 8 && error.column == 5)
        }
        do {
            _ = try readAll(fixtureBytes("bad_invalid_utf8.csv"), chunkSize: 3)
            Issue.record("expected invalid UTF-8")
        } catch let error as CSVError {
            #expect(error.kind == .invalidUTF8)
            #expect(error.line == 2 && error.column == 5)
        }
    }

    @Test func readsFilesByPathInSmallChunks() throws {
        let reader = try CSVReader(path: fixtureURL("ok_quoted_newline.csv").path, chunkSize: 5)
        var count = 0
        var lastLine = 0
        while let record = try reader.nextRecord() {
            count += 1
            lastLine = record.line
        }
        #expect(count == 9 && lastLine == 9)
        #expect(reader.recordsRead == 9)
        #expect(reader.currentLine == 11, "the last record spans lines 9-10")
    }

    @Test func readsAFileDescriptorLikeStandardInput() throws {
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        let text = Array("lat,lon\r\n1.5,2\r\n\"3\",4".utf8)
        #expect(write(fds[1], text, text.count) == text.count)
        close(fds[1])
        let reader = CSVReader(fileDescriptor: fds[0], closeWhenDone: true, chunkSize: 4)
        #expect(reader.sourceName == "stdin")
        var rows: [Row] = []
        while let record = try reader.nextRecord() { rows.append(Row(line: record.line, fields: try record.fields)) }
        #expect(rows == [Row(line: 1, fields: ["lat", "lon"]), Row(line: 2, fields: ["1.5", "2"]), Row(line: 3, fields: ["3", "4"])])
    }

    @Test func missingFileIsAnIOError() {
        do {
            _ = try CSVReader(path: "/nonexistent/file.csv")
            Issue.record("expected an error")
        } catch {
            #expect(error.kind == .io)
            #expect(error.message.contains("/nonexistent/file.csv"))
        }
    }

    @Test func largeRecordGrowsTheBuffer() throws {
        let long = String(repeating: "x", count: 10_000)
        let text = "\"\(long)\"\"\",b\n\(long),c\n"
        let rows = try readAll(text, chunkSize: 7)
        #expect(rows == [Row(line: 1, fields: [long + "\"", "b"]), Row(line: 2, fields: [long, "c"])])
    }

    @Test func manyFieldsGrowTheBounds() throws {
        let fields = (0..<500).map(String.init)
        #expect(try readAll(fields.joined(separator: ",") + "\n", chunkSize: 3) == [Row(line: 1, fields: fields)])
    }

    @Test func errorFormatting() {
        let error = CSVError(.invalidValue, line: 3, column: 2, columnName: "lon", message: "expected a number")
        #expect(error.formatted(source: "stdin") == "stdin:3:lon: expected a number")
        let unnamed = CSVError(.fieldCount, line: 4, column: 5, message: "too many")
        #expect(unnamed.formatted(source: "stdin") == "stdin:4:5: too many")
        #expect(unnamed.description == "line 4, column 5: too many")
    }
}
