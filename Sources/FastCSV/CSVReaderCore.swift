#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The mutable state and the parsing state machine of a ``CSVReader``.
///
/// Kept as a struct behind an `UnsafeMutablePointer` owned by the reader: mutating methods on
/// a struct reach their fields with static exclusivity only, where stored properties of a class
/// would need a dynamic exclusivity check on every access (which `-enable-testing` builds and
/// debug builds cannot optimize away: they tripled the cost per record).
struct CSVReaderCore {
    /// The scanner's state between bytes; persisted across refills.
    enum ScanState {
        /// Before the first byte of a record (blank lines and a pending `\n` of `\r\n` skipped here).
        case recordStart
        /// At the first byte of a field.
        case fieldStart
        /// Inside an unquoted field.
        case unquoted
        /// Inside a quoted field.
        case quoted
        /// Just after a `"` inside a quoted field: either a doubled quote or the closing quote.
        case quoteInQuoted
    }

    /// Outcome of one scanning pass over the buffered bytes.
    enum ScanResult {
        case complete
        case needMore
    }

    var memoryOffset = 0
    var buffer: UnsafeMutablePointer<UInt8>
    var capacity: Int
    /// Bytes `[0, dataEnd)` of `buffer` hold input.
    var dataEnd = 0
    /// Buffer index of the first byte of the record being scanned.
    var recordStart = 0
    /// Buffer index of the next byte to scan.
    var position = 0
    var atEOF = false
    var started = false

    /// Field bounds, two per field, as offsets relative to `recordStart`; a field whose content
    /// still holds doubled quotes has its start stored bit-inverted (`~start`, negative).
    var bounds: UnsafeMutablePointer<Int>
    var boundsCapacity: Int
    var fieldCount = 0
    var needsUnescape = false
    var state = ScanState.recordStart
    /// Start of the field being scanned, relative to `recordStart`.
    var fieldBegin = 0
    /// 1-based physical line of the byte at `position`.
    var line = 1
    var recordLine = 1
    var quoteLine = 1
    /// The previous record ended with `\r`: a `\n` right after it belongs to the same line break.
    var skipLF = false
    /// Inside a quoted field, the previous byte was `\r` (so a `\n` does not start another line).
    var crInQuote = false
    /// The current quoted field contains a doubled quote.
    var fieldNeedsUnescape = false
    var failure: CSVError?
    var recordsRead = 0

    init(chunkSize: Int) {
        // Two chunks: one being parsed, room to read the next behind a partial record.
        capacity = max(2 * chunkSize, 16)
        buffer = .allocate(capacity: capacity)
        // 32 fields before the first growth: more than any file this package reads.
        boundsCapacity = 64
        bounds = .allocate(capacity: boundsCapacity)
    }

    func deallocate() {
        buffer.deallocate()
        bounds.deallocate()
    }

    /// See ``CSVReader/nextRecord()``.
    mutating func nextRecord(_ input: CSVReader.Input) throws(CSVError) -> CSVRecord? {
        if let failure { throw failure }
        do {
            if !started { try start(input) }
            recordStart = position
            fieldCount = 0
            needsUnescape = false
            state = .recordStart
            while true {
                if try scan() == .complete { break }
                if atEOF {
                    if try finishAtEndOfInput() { break }
                    return nil
                }
                try refill(input)
            }
        } catch {
            failure = error
            throw error
        }
        // A record that arrived whole within one buffer never went through `refill`'s check.
        if position - recordStart > input.maxRecordBytes + 2 {  // + 2: the line break
            let error = tooLong(line: recordLine, input)
            failure = error
            throw error
        }
        if needsUnescape { unescapeFields() }
        recordsRead += 1
        return CSVRecord(base: buffer + recordStart, bounds: bounds, count: fieldCount, line: recordLine)
    }

    /// Fills the first bytes and skips a UTF-8 byte-order mark.
    mutating func start(_ input: CSVReader.Input) throws(CSVError) {
        started = true
        // A BOM is 3 bytes: make sure they are all buffered (chunks may be as small as 1 byte).
        while dataEnd < 3 && !atEOF { try refill(input) }
        if dataEnd >= 3 && buffer[0] == 0xEF && buffer[1] == 0xBB && buffer[2] == 0xBF {
            position = 3
        }
    }

    /// Scans buffered bytes from `position`, advancing the state machine.
    /// Returns `.complete` when a record terminator was consumed, `.needMore` at the buffer's end.
    ///
    /// The state lives in locals for the whole pass and is stored back once on exit, so the
    /// per-byte and per-field work stays in registers.
    mutating func scan() throws(CSVError) -> ScanResult {
        let buf = buffer
        let end = dataEnd
        var p = position
        var st = state
        var ln = line
        var start = recordStart
        var count = fieldCount
        var fields = bounds
        var fieldsCapacity = boundsCapacity
        var begin = fieldBegin
        var pendingLF = skipLF
        var crQuoted = crInQuote
        var escapedField = fieldNeedsUnescape
        var escapedRecord = needsUnescape
        defer {
            position = p
            state = st
            line = ln
            recordStart = start
            fieldCount = count
            fieldBegin = begin
            skipLF = pendingLF
            crInQuote = crQuoted
            fieldNeedsUnescape = escapedField
            needsUnescape = escapedRecord
        }
        @inline(__always)
        func append(_ from: Int, _ to: Int, _ escaped: Bool) {
            if 2 * (count + 1) > fieldsCapacity {
                fieldCount = count
                growBounds()
                fields = bounds
                fieldsCapacity = boundsCapacity
            }
            fields[2 * count] = escaped ? ~from : from
            fields[2 * count + 1] = to
            count += 1
        }
        let comma: UInt8 = 0x2C, quote: UInt8 = 0x22, lf: UInt8 = 0x0A, cr: UInt8 = 0x0D
        while p < end {
            switch st {
            case .recordStart:
                let c = buf[p]
                if c == lf {
                    if pendingLF { pendingLF = false } else { ln += 1 }
                    p += 1
                    start = p
                } else if c == cr {
                    ln += 1
                    pendingLF = true
                    p += 1
                    start = p
                } else {
                    pendingLF = false
                    recordLine = ln
                    st = .fieldStart
                }
            case .fieldStart:
                let c = buf[p]
                if c == quote {
                    quoteLine = ln
                    crQuoted = false
                    escapedField = false
                    p += 1
                    begin = p - start
                    st = .quoted
                } else if c == comma {
                    append(p - start, p - start, false)
                    p += 1
                } else if c == lf || c == cr {
                    append(p - start, p - start, false)
                    ln += 1
                    pendingLF = c == cr
                    p += 1
                    return .complete
                } else {
                    begin = p - start
                    p += 1
                    st = .unquoted
                }
            case .unquoted:
                // Hot loop: plain bytes until a separator or a line break.
                var c: UInt8 = 0
                while p < end {
                    c = buf[p]
                    if c == comma || c == lf || c == cr { break }
                    p += 1
                }
                if p == end { return .needMore }
                append(begin, p - start, false)
                p += 1
                if c == comma {
                    st = .fieldStart
                } else {
                    ln += 1
                    pendingLF = c == cr
                    return .complete
                }
            case .quoted:
                var found = false
                while p < end {
                    let c = buf[p]
                    if c == quote { found = true; break }
                    if c == lf {
                        if !crQuoted { ln += 1 }
                        crQuoted = false
                    } else if c == cr {
                        ln += 1
                        crQuoted = true
                    } else {
                        crQuoted = false
                    }
                    p += 1
                }
                if !found { return .needMore }
                crQuoted = false
                p += 1
                st = .quoteInQuoted
            case .quoteInQuoted:
                let c = buf[p]
                if c == quote {
                    // A doubled quote: one literal quote, unescaped once the record is complete.
                    escapedRecord = true
                    escapedField = true
                    p += 1
                    st = .quoted
                } else if c == comma || c == lf || c == cr {
                    append(begin, p - 1 - start, escapedField)
                    escapedField = false
                    p += 1
                    if c == comma {
                        st = .fieldStart
                    } else {
                        ln += 1
                        pendingLF = c == cr
                        return .complete
                    }
                } else {
                    throw CSVError(
                        .unexpectedCharacterAfterQuote, line: ln, column: count + 1,
                        message: "expected ',' or a line break after the closing quote, found \(describeByte(c))")
                }
            }
        }
        return .needMore
    }

    /// Completes the last record at the end of the input.
    /// - Returns: `false` if there is no record left.
    mutating func finishAtEndOfInput() throws(CSVError) -> Bool {
        let here = position - recordStart
        switch state {
        case .recordStart:
            return false
        case .fieldStart:
            // "a,<EOF>": the trailing comma opened an empty last field.
            appendField(start: here, end: here, escaped: false)
        case .unquoted:
            appendField(start: fieldBegin, end: here, escaped: false)
        case .quoted:
            throw CSVError(
                .unterminatedQuote, line: quoteLine, column: fieldCount + 1,
                message: "expected a closing '\"' for the quote opened on line \(quoteLine), found the end of the input")
        case .quoteInQuoted:
            appendField(start: fieldBegin, end: here - 1, escaped: fieldNeedsUnescape)
            fieldNeedsUnescape = false
        }
        state = .recordStart
        return true
    }

    @inline(__always)
    mutating func appendField(start: Int, end: Int, escaped: Bool) {
        if 2 * (fieldCount + 1) > boundsCapacity { growBounds() }
        bounds[2 * fieldCount] = escaped ? ~start : start
        bounds[2 * fieldCount + 1] = end
        fieldCount += 1
    }

    mutating func growBounds() {
        let newCapacity = boundsCapacity * 2
        let grown = UnsafeMutablePointer<Int>.allocate(capacity: newCapacity)
        grown.update(from: bounds, count: 2 * fieldCount)
        bounds.deallocate()
        bounds = grown
        boundsCapacity = newCapacity
    }

    /// Collapses every `""` into `"` in the fields flagged while scanning (in place).
    mutating func unescapeFields() {
        let base = buffer + recordStart
        for i in 0..<fieldCount where bounds[2 * i] < 0 {
            let start = ~bounds[2 * i]
            let end = bounds[2 * i + 1]
            var read = start
            var write = start
            while read < end {
                let c = base[read]
                base[write] = c
                write += 1
                // Inside quoted content every quote is doubled: skip its twin.
                read += c == 0x22 ? 2 : 1
            }
            bounds[2 * i] = start
            bounds[2 * i + 1] = write
        }
    }

    /// The error for a record longer than the input's limit, starting at `line`.
    func tooLong(line: Int, _ input: CSVReader.Input) -> CSVError {
        CSVError(
            .recordTooLong, line: line, column: 0,
            message: "the record starting on this line is longer than \(input.maxRecordBytes) bytes "
                + "(the reader's limit; is this a CSV file?)")
    }

    /// Moves the partial record to the front of the buffer, grows the buffer if it is full,
    /// and reads up to one chunk.
    mutating func refill(_ input: CSVReader.Input) throws(CSVError) {
        if recordStart > 0 {
            let keep = dataEnd - recordStart
            if keep > 0 { (buffer).update(from: buffer + recordStart, count: keep) }
            position -= recordStart
            dataEnd = keep
            recordStart = 0
        }
        if dataEnd > input.maxRecordBytes {  // every buffered byte belongs to the unfinished record
            throw tooLong(line: state == .recordStart ? line : recordLine, input)
        }
        if dataEnd == capacity {
            let newCapacity = capacity * 2
            let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
            grown.update(from: buffer, count: dataEnd)
            buffer.deallocate()
            buffer = grown
            capacity = newCapacity
        }
        let want = min(input.chunkSize, capacity - dataEnd)
        let got: Int
        switch input.source {
        case .memory(let bytes):
            got = min(want, bytes.count - memoryOffset)
            if got > 0 {
                bytes.withUnsafeBufferPointer { src in
                    (buffer + dataEnd).update(from: src.baseAddress! + memoryOffset, count: got)
                }
                memoryOffset += got
            }
        case .fileDescriptor(let fd, _):
            var n: Int
            repeat {
                n = read(fd, buffer + dataEnd, want)
            } while n < 0 && errno == EINTR
            if n < 0 {
                let reason = String(cString: strerror(errno))
                throw CSVError(.io, line: line, column: 0, message: "cannot read \(input.name): \(reason)")
            }
            got = n
        }
        if got == 0 { atEOF = true }
        dataEnd += got
    }
}

/// A byte as shown in an error message: the character if printable ASCII, else hex.
func describeByte(_ c: UInt8) -> String {
    if c >= 0x20 && c < 0x7F { return "'\(Character(Unicode.Scalar(c)))'" }
    let hex = String(c, radix: 16, uppercase: true)
    return "byte 0x" + (hex.count < 2 ? "0" + hex : hex)
}
