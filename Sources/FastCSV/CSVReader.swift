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
/// chunk are held, never the whole input. A record larger than the buffer grows it (doubling), up
/// to ``maxRecordBytes`` (1 MiB by default): a longer record (a line, or the lines of one quoted
/// field) is ``CSVError/Kind/recordTooLong`` at the line where it starts, so that a file without
/// line breaks (`/dev/zero`, a binary) fails in bounded memory instead of filling it.
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
    /// The default longest record: 1 MiB (a workload row is under 100 bytes).
    public static let defaultMaxRecordBytes = 1 << 20

    /// Where bytes come from.
    enum Source {
        case fileDescriptor(Int32, owned: Bool)
        case memory([UInt8])
    }

    /// The immutable description of the input handed to the core on each call.
    struct Input {
        let source: Source
        let chunkSize: Int
        let name: String
        let maxRecordBytes: Int
    }

    let input: Input
    /// The parser's state, owned by the reader (allocated in `init`, freed in `deinit`).
    let core: UnsafeMutablePointer<CSVReaderCore>

    /// Bytes requested from the source per refill.
    public var chunkSize: Int { input.chunkSize }
    /// The longest record accepted, in bytes (see the type's comment).
    public var maxRecordBytes: Int { input.maxRecordBytes }
    /// Name of the input used in messages (a path, `"stdin"` or `"memory"`).
    public var sourceName: String { input.name }
    /// Number of records returned so far.
    public var recordsRead: Int { core.pointee.recordsRead }

    init(source: Source, name: String, chunkSize: Int, maxRecordBytes: Int) {
        precondition(chunkSize > 0, "chunkSize must be positive")
        precondition(maxRecordBytes > 0, "maxRecordBytes must be positive")
        input = Input(source: source, chunkSize: chunkSize, name: name, maxRecordBytes: maxRecordBytes)
        core = .allocate(capacity: 1)
        core.initialize(to: CSVReaderCore(chunkSize: chunkSize))
    }

    deinit {
        core.pointee.deallocate()
        core.deinitialize(count: 1)
        core.deallocate()
        if case .fileDescriptor(let fd, owned: true) = input.source { _ = close(fd) }
    }

    /// Reads the file at `path` (opened read-only, closed when the reader is released).
    /// - Throws: ``CSVError`` of kind `.io` if the file cannot be opened.
    public convenience init(
        path: String, chunkSize: Int = CSVReader.defaultChunkSize,
        maxRecordBytes: Int = CSVReader.defaultMaxRecordBytes
    ) throws(CSVError) {
        let fd = open(path, O_RDONLY)
        if fd < 0 {
            let reason = String(cString: strerror(errno))
            throw CSVError(.io, line: 0, column: 0, message: "cannot open \(path): \(reason)")
        }
        self.init(source: .fileDescriptor(fd, owned: true), name: path, chunkSize: chunkSize, maxRecordBytes: maxRecordBytes)
    }

    /// Reads an already open file descriptor (not closed by the reader unless `closeWhenDone`).
    public convenience init(
        fileDescriptor: Int32, name: String = "stdin", closeWhenDone: Bool = false,
        chunkSize: Int = CSVReader.defaultChunkSize,
        maxRecordBytes: Int = CSVReader.defaultMaxRecordBytes
    ) {
        self.init(
            source: .fileDescriptor(fileDescriptor, owned: closeWhenDone), name: name, chunkSize: chunkSize,
            maxRecordBytes: maxRecordBytes)
    }

    /// Reads standard input.
    public static func standardInput(
        chunkSize: Int = CSVReader.defaultChunkSize,
        maxRecordBytes: Int = CSVReader.defaultMaxRecordBytes
    ) -> CSVReader {
        CSVReader(fileDescriptor: 0, name: "stdin", chunkSize: chunkSize, maxRecordBytes: maxRecordBytes)
    }

    /// Reads an in-memory buffer, copied into the reader `chunkSize` bytes at a time exactly as
    /// a file would be (so tests can place chunk boundaries anywhere).
    public convenience init(
        bytes: [UInt8], chunkSize: Int = CSVReader.defaultChunkSize,
        maxRecordBytes: Int = CSVReader.defaultMaxRecordBytes
    ) {
        self.init(source: .memory(bytes), name: "memory", chunkSize: chunkSize, maxRecordBytes: maxRecordBytes)
    }

    /// Reads the UTF-8 bytes of `text`.
    public convenience init(
        string text: String, chunkSize: Int = CSVReader.defaultChunkSize,
        maxRecordBytes: Int = CSVReader.defaultMaxRecordBytes
    ) {
        self.init(bytes: Array(text.utf8), chunkSize: chunkSize, maxRecordBytes: maxRecordBytes)
    }

    /// The 1-based physical line at which the next record would start (after the last record,
    /// one more than the number of lines read).
    public var currentLine: Int { core.pointee.line }

    /// Parses the next record.
    /// - Returns: the record, valid until the next call; `nil` at the end of the input.
    /// - Throws: ``CSVError`` for an unterminated quote, a character after a closing quote, a
    ///   record longer than ``maxRecordBytes``, or an I/O error; once thrown, every later call throws the same error.
    public func nextRecord() throws(CSVError) -> CSVRecord? {
        try core.pointee.nextRecord(input)
    }
}
