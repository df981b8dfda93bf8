import Testing
@testable import FastCSV

@Suite struct CSVNumericReaderTests {
    /// Reads all rows; returns values per row and the errors met (row errors are skipped).
    func run(_ text: String, _ columns: [String]) -> (rows: [[Double]], errors: [CSVError], header: Bool) {
        let numeric = CSVNumericReader(reader: CSVReader(string: text, chunkSize: 3), columns: columns)
        var rows: [[Double]] = []
        var errors: [CSVError] = []
        while true {
            do {
                guard try numeric.next() else { break }
                rows.append(numeric.values)
            } catch {
                errors.append(error)
                if error.kind != .fieldCount && error.kind != .invalidValue { break }
            }
        }
        return (rows, errors, numeric.hasHeader)
    }

    @Test func headerIsOptionalAndMayBeReordered() {
        let plain = run("1,2\n3,4\n", ["lat", "lon"])
        #expect(plain.rows == [[1, 2], [3, 4]] && !plain.header)
        let headed = run("lat,lon\n1,2\n", ["lat", "lon"])
        #expect(headed.rows == [[1, 2]] && headed.header)
        let reordered = run(" LON , Lat\n2,1\n", ["lat", "lon"])
        #expect(reordered.rows == [[1, 2]] && reordered.header)
        let headerOnly = run("lat,lon\n", ["lat", "lon"])
        #expect(headerOnly.rows.isEmpty && headerOnly.errors.isEmpty)
    }

    @Test func wrongHeaderIsData() {
        let result = run("latitude,lon\n1,2\n", ["lat", "lon"])
        #expect(result.rows == [[1, 2]])
        #expect(result.errors.count == 1)
        #expect(result.errors.first?.line == 1 && result.errors.first?.columnName == "lat")
    }

    @Test func rowErrorsNameLineAndColumn() {
        let text = "lat,lon\n1,2\nNaN,3\n4\n5,6,7\n8,x\n\"9\",\"10\"\n"
        let result = run(text, ["lat", "lon"])
        #expect(result.rows == [[1, 2], [9, 10]])
        let shown = result.errors.map { $0.formatted(source: "stdin") }
        #expect(
            shown == [
                "stdin:3:lat: expected a finite decimal number, found \"NaN\"",
                "stdin:4:lon: expected 2 fields (lat,lon), found 1",
                "stdin:5:3: expected 2 fields (lat,lon), found 3",
                "stdin:6:lon: expected a decimal number, found \"x\""
            ])
    }

    @Test func structuralErrorsAreFinal() {
        let result = run("1,2\n\"3,4\n", ["lat", "lon"])
        #expect(result.rows == [[1, 2]])
        #expect(result.errors.map(\.kind) == [.unterminatedQuote])
    }
}
