// libFuzzer harness of the FastCSV module (compiled into module FastCSV by scripts/fuzz-libs).
// Any bytes: records read with chunks of 1 to 64 bytes are those read whole (or the same error);
// every field through the number parsers, which agree with Swift's own parsers on what they
// accept; CSVHeader on the first record; CSVNumericReader over the same bytes.
#if canImport(Glibc)
import Glibc
#endif

func records(_ reader: CSVReader) -> (rows: [[[UInt8]]], lines: [Int], error: CSVError?) {
    var rows: [[[UInt8]]] = [], lines: [Int] = []
    do {
        while let r = try reader.nextRecord() {
            check(r.count >= 1, "a record of no field")
            rows.append((0..<r.count).map { Array(r[$0]) })
            lines.append(r.line)
            if rows.count == 1 { _ = try? CSVHeader(r); _ = CSVHeader.isHeader(r) }
            for i in 0..<r.count {
                let field = r[i]
                let text = String(decoding: field, as: UTF8.self)
                if let d = r.double(at: i) {
                    let swift = Double(text)
                    check(swift != nil && (swift!.bitPattern == d.bitPattern), "parseDouble(\(text)) = \(d), Double() = \(String(describing: swift))")
                }
                if let n = r.int64(at: i) { check(Int64(text) == n, "parseInt64(\(text)) = \(n)") } else if text.utf8.count == field.count, let n = Int64(text) {
                    check(false, "parseInt64 refused \(text) = \(n)")
                }
                if let n = r.uint64(at: i) { check(UInt64(text) == n, "parseUInt64(\(text)) = \(n)") }
                _ = parseDouble(field, allowingNonFinite: true)
                _ = try? r.string(at: i)
                _ = r.lossyString(at: i)
                _ = r.field(i, equals: "lat")
                _ = MessageText.clipped(field)
            }
            _ = r.double(at: r.count); _ = r.int64(at: -1); _ = try? r.string(at: r.count)
            check(rows.count < 1_000_000, "too many records")
        }
    } catch {
        check(error.line >= 0 && error.column >= 0, "negative place \(error)")
        _ = error.formatted(source: "f")
        return (rows, lines, error)
    }
    return (rows, lines, nil)
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size >= 1 else { return 0 }
    let chunk = Int(data[0] & 63) + 1
    let bytes = Array(UnsafeBufferPointer(start: data + 1, count: size - 1))
    let whole = records(CSVReader(bytes: bytes))
    let chunked = records(CSVReader(bytes: bytes, chunkSize: chunk))
    check(whole.rows == chunked.rows && whole.lines == chunked.lines, "chunk \(chunk): other records")
    check(whole.error == chunked.error, "chunk \(chunk): error \(String(describing: chunked.error)) against \(String(describing: whole.error))")
    // A small record limit: the same records up to the first one too long.
    let limit = Int(data[0] >> 6) * 40 + 8
    let limited = records(CSVReader(bytes: bytes, chunkSize: chunk, maxRecordBytes: limit))
    check(limited.rows.count <= whole.rows.count, "more records under a limit")
    check(Array(whole.rows.prefix(limited.rows.count)) == limited.rows, "other records under a limit")
    if limited.error == nil { check(whole.error == nil && limited.rows == whole.rows, "limit \(limit): fewer records, no error") }
    // The numeric reader, skipping row errors.
    for columns in [["lat", "lon"], ["x"], ["a", "b", "c"]] {
        let numeric = CSVNumericReader(reader: CSVReader(bytes: bytes, chunkSize: chunk), columns: columns)
        var rows = 0, errors = 0
        while rows + errors < 1_000_000 {
            do {
                guard try numeric.next() else { break }
                check(numeric.values.count == columns.count, "values count")
                rows += 1
            } catch {
                errors += 1
                if error.kind != .fieldCount && error.kind != .invalidValue { break }
            }
        }
    }
    if let header = try? CSVHeader(reading: CSVReader(bytes: bytes, chunkSize: chunk)) {
        _ = header.index(of: "lat"); _ = try? header.requireIndexes(of: ["lat", "lon"])
    }
    return 0
}
