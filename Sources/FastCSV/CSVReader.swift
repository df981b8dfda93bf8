#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A streaming RFC 4180 CSV reader over a file, a file descriptor (e.g. standard input) or an
/// in-memory byte buffer.
///
/// Representation: one growable byte buffer refilled from the source in chunks of `chunkSize`
/// bytes (64 KiB by default); only the record being parsed and the unread rest of the current
/// chunk are held, never the whole input. A record larger than the buffer grows it (doubling).
/// Each field is kept as a pair of byte offsets into the buffer; quoted fields containing doubled
/// quotes are unescaped in place once their record is complete. The scanner is a resumable state
/// machine, so any byte (a quote, a `\r`, a `\n`, a UTF-8 sequence) may fall on a chunk boundary.
///
/// Accepted dialect:
/// - fields separated by `,`; records end with `\n`, `\r\n` or a lone `\r`; the last record may
///   lack a line break; a trailing `,` before the end of a record gives a last empty field;
/// - a field starting with `"` is quoted: it ends at the next `"` not doubled; it may contain
///   `,`, `""` (one quote) and line breaks (kept verbatim); after the closing quote only `,`, a
///   line break or the end of input may follow;
/// - a `"` inside an unquoted field is kept as data (lenient, as Python's `csv` does);
/// - a UTF-8 byte-order mark at the very start is skipped;
/// - blank lines (no bytes at all between line breaks) are skipped: they hold no record.
/// Bytes are not checked for UTF-8 until a field is asked for as a `String`.
///
/// Line numbers are 1-based physical lines: `\n`, `\r\n` and a lone `\r` each end one line,
/// including inside quoted fields. Columns are 1-based field indexes.
///
/// ```swift
/// let reader = try CSVReader(path: "fixes.csv")
/// while let record = try reader.nextRecord() {
///     guard let lat = record.double(at: 2) else { ... }
/// }
/// ```
/// The ``CSVRecord`` returned by ``nextRecord()`` points into the reader's buffer and is valid
/// only until the next call to ``nextRecord()`` (or until the reader is released).
///
/// - Complexity: O(n) in the input size; no allocation per record once the buffers have grown
///   to the largest record.
public final class CSVReader {
    /// The default read size: 64 KiB, large enough to amortise a system call, small enough
    /// to stay in L2 cache.
    public static let defaultChunkSize = 65_536

    /// Where bytes come from.
    enum Source {
        case fileDescriptor(Int32, owned: Bool)
        case memory([UInt8])
    }

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

    let source: Source
    /// Bytes requested from the source per refill.
    public let chunkSize: Int
    /// Name of the input used in messages (a path, `"stdin"` or `"memory"`).
    public let sourceName: String

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
    var failure: CSVError?

    /// Number of records returned so far.
    public private(set) var recordsRead = 0

    init(source: Source, name: String, chunkSize: Int) {
        precondition(chunkSize > 0, "chunkSize must be positive")
        self.source = source
        self.sourceName = name
        self.chunkSize = chunkSize
        // Two chunks: one being parsed, room to read the next behind a partial record.
        capacity = max(2 * chunkSize, 16)
        buffer = .allocate(capacity: capacity)
        // 32 fields before the first growth: more than any file this package reads.
        boundsCapacity = 64
        bounds = .allocate(capacity: boundsCapacity)
    }

    deinit {
        buffer.deallocate()
        bounds.deallocate()
        if case .fileDescriptor(let fd, owned: true) = source { _ = close(fd) }
    }

    /// Reads the file at `path` (opened read-only, closed when the reader is released).
    /// - Throws: ``CSVError`` of kind `.io` if the file cannot be opened.
    public convenience init(path: String, chunkSize: Int = CSVReader.defaultChunkSize) throws(CSVError) {
        let fd = open(path, O_RDONLY)
        if fd < 0 {
            let reason = String(cString: strerror(errno))
            throw CSVError(.io, line: 0, column: 0, message: "cannot open \(path): \(reason)")
        }
        self.init(source: .fileDescriptor(fd, owned: true), name: path, chunkSize: chunkSize)
    }

    /// Reads an already open file descriptor (not closed by the reader unless `closeWhenDone`).
    public convenience init(fileDescriptor: Int32, name: String = "stdin", closeWhenDone: Bool = false,
                            chunkSize: Int = CSVReader.defaultChunkSize) {
        self.init(source: .fileDescriptor(fileDescriptor, owned: closeWhenDone), name: name, chunkSize: chunkSize)
    }

    /// Reads standard input.
    public static func standardInput(chunkSize: Int = CSVReader.defaultChunkSize) -> CSVReader {
        CSVReader(fileDescriptor: 0, name: "stdin", chunkSize: chunkSize)
    }

    /// Reads an in-memory buffer, copied into the reader `chunkSize` bytes at a time exactly as
    /// a file would be (so tests can place chunk boundaries anywhere).
    public convenience init(bytes: [UInt8], chunkSize: Int = CSVReader.defaultChunkSize) {
        self.init(source: .memory(bytes), name: "memory", chunkSize: chunkSize)
    }

    /// Reads the UTF-8 bytes of `text`.
    public convenience init(string text: String, chunkSize: Int = CSVReader.defaultChunkSize) {
        self.init(bytes: Array(text.utf8), chunkSize: chunkSize)
    }

    /// The 1-based physical line at which the next record would start (after the last record,
    /// one more than the number of lines read).
    public var currentLine: Int { line }

    // MARK: - Reading

    /// Parses the next record.
    /// - Returns: the record, valid until the next call; `nil` at the end of the input.
    /// - Throws: ``CSVError`` for an unterminated quote, a character after a closing quote, or an
    ///   I/O error; once thrown, every later call throws the same error.
    public func nextRecord() throws(CSVError) -> CSVRecord? {
        if let failure { throw failure }
        do {
            if !started { try start() }
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
                try refill()
            }
        } catch {
            failure = error
            throw error
        }
        if needsUnescape { unescapeFields() }
        recordsRead += 1
        return CSVRecord(base: buffer + recordStart, bounds: bounds, count: fieldCount, line: recordLine)
    }

    /// Fills the first bytes and skips a UTF-8 byte-order mark.
    func start() throws(CSVError) {
        started = true
        // A BOM is 3 bytes: make sure they are all buffered (chunks may be as small as 1 byte).
        while dataEnd < 3 && !atEOF { try refill() }
        if dataEnd >= 3 && buffer[0] == 0xEF && buffer[1] == 0xBB && buffer[2] == 0xBF {
            position = 3
        }
    }

    /// Scans buffered bytes from `position`, advancing the state machine.
    /// Returns `.complete` when a record terminator was consumed, `.needMore` at the buffer's end.
    func scan() throws(CSVError) -> ScanResult {
        let buf = buffer
        let end = dataEnd
        var p = position
        var st = state
        var ln = line
        let comma: UInt8 = 0x2C, quote: UInt8 = 0x22, lf: UInt8 = 0x0A, cr: UInt8 = 0x0D
        defer {
            position = p
            state = st
            line = ln
        }
        while p < end {
            switch st {
            case .recordStart:
                let c = buf[p]
                if c == lf {
                    if skipLF { skipLF = false } else { ln += 1 }
                    p += 1
                    recordStart = p
                } else if c == cr {
                    ln += 1
                    skipLF = true
                    p += 1
                    recordStart = p
                } else {
                    skipLF = false
                    recordLine = ln
                    st = .fieldStart
                }
            case .fieldStart:
                let c = buf[p]
                if c == quote {
                    quoteLine = ln
                    crInQuote = false
                    fieldNeedsUnescape = false
                    p += 1
                    fieldBegin = p - recordStart
                    st = .quoted
                } else if c == comma {
                    appendField(start: p - recordStart, end: p - recordStart, escaped: false)
                    p += 1
                } else if c == lf || c == cr {
                    appendField(start: p - recordStart, end: p - recordStart, escaped: false)
                    ln += 1
                    skipLF = c == cr
                    p += 1
                    return .complete
                } else {
                    fieldBegin = p - recordStart
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
                appendField(start: fieldBegin, end: p - recordStart, escaped: false)
                p += 1
                if c == comma {
                    st = .fieldStart
                } else {
                    ln += 1
                    skipLF = c == cr
                    return .complete
                }
            case .quoted:
                var found = false
                while p < end {
                    let c = buf[p]
                    if c == quote { found = true; break }
                    if c == lf {
                        if !crInQuote { ln += 1 }
                        crInQuote = false
                    } else if c == cr {
                        ln += 1
                        crInQuote = true
                    } else {
                        crInQuote = false
                    }
                    p += 1
                }
                if !found { return .needMore }
                crInQuote = false
                p += 1
                st = .quoteInQuoted
            case .quoteInQuoted:
                let c = buf[p]
                if c == quote {
                    // A doubled quote: one literal quote, unescaped once the record is complete.
                    needsUnescape = true
                    fieldNeedsUnescape = true
                    p += 1
                    st = .quoted
                } else if c == comma || c == lf || c == cr {
                    appendField(start: fieldBegin, end: p - 1 - recordStart, escaped: fieldNeedsUnescape)
                    fieldNeedsUnescape = false
                    p += 1
                    if c == comma {
                        st = .fieldStart
                    } else {
                        ln += 1
                        skipLF = c == cr
                        return .complete
                    }
                } else {
                    throw CSVError(.unexpectedCharacterAfterQuote, line: ln, column: fieldCount + 1,
                                   message: "expected ',' or a line break after the closing quote, found \(describeByte(c))")
                }
            }
        }
        return .needMore
    }

    /// The current quoted field contains a doubled quote.
    var fieldNeedsUnescape = false

    /// Completes the last record at the end of the input.
    /// - Returns: `false` if there is no record left.
    func finishAtEndOfInput() throws(CSVError) -> Bool {
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
            throw CSVError(.unterminatedQuote, line: quoteLine, column: fieldCount + 1,
                           message: "expected a closing '\"' for the quote opened on line \(quoteLine), found the end of the input")
        case .quoteInQuoted:
            appendField(start: fieldBegin, end: here - 1, escaped: fieldNeedsUnescape)
            fieldNeedsUnescape = false
        }
        state = .recordStart
        return true
    }

    @inline(__always)
    func appendField(start: Int, end: Int, escaped: Bool) {
        if 2 * (fieldCount + 1) > boundsCapacity { growBounds() }
        bounds[2 * fieldCount] = escaped ? ~start : start
        bounds[2 * fieldCount + 1] = end
        fieldCount += 1
    }

    func growBounds() {
        let newCapacity = boundsCapacity * 2
        let grown = UnsafeMutablePointer<Int>.allocate(capacity: newCapacity)
        grown.update(from: bounds, count: 2 * fieldCount)
        bounds.deallocate()
        bounds = grown
        boundsCapacity = newCapacity
    }

    /// Collapses every `""` into `"` in the fields flagged while scanning (in place).
    func unescapeFields() {
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

    /// Moves the partial record to the front of the buffer, grows the buffer if it is full,
    /// and reads up to one chunk.
    func refill() throws(CSVError) {
        if recordStart > 0 {
            let keep = dataEnd - recordStart
            if keep > 0 { (buffer).update(from: buffer + recordStart, count: keep) }
            position -= recordStart
            dataEnd = keep
            recordStart = 0
        }
        if dataEnd == capacity {
            let newCapacity = capacity * 2
            let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
            grown.update(from: buffer, count: dataEnd)
            buffer.deallocate()
            buffer = grown
            capacity = newCapacity
        }
        let want = min(chunkSize, capacity - dataEnd)
        let got: Int
        switch source {
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
                throw CSVError(.io, line: line, column: 0, message: "cannot read \(sourceName): \(reason)")
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
