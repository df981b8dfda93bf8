import NumberFormatting

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The package's one buffered writer: CSV (or plain text) to a file descriptor, a file it opens,
/// or memory.
///
/// Representation: a fixed byte buffer (64 KiB by default, 1 MiB for files) flushed with
/// `write(2)` when full, on ``flush()`` and when the writer is released; so output streams and a
/// million rows never need a million rows of memory. Fields are separated by `,` (written by the
/// writer between fields of a record) and records end with `\n`. `writeField(_:)` quotes a
/// field containing `,`, `"`, `\r` or `\n` as RFC 4180 requires; numbers are written with
/// Swift's shortest round-trip `description`, or with a fixed number of decimals through
/// ``writeField(_:decimals:)`` (`DecimalFormatting`). Not thread-safe; one writer per output.
public final class CSVWriter {
    enum Sink {
        case fileDescriptor(Int32)
        case memory
    }

    let sink: Sink
    /// The file this writer opened (and closes), if any.
    let path: String?
    /// Digits of the number being written (reused, so numbers allocate nothing).
    var scratch: [UInt8] = []
    var buffer: UnsafeMutablePointer<UInt8>
    let capacity: Int
    var used = 0
    var atRecordStart = true
    var collected: [UInt8] = []
    /// Everything written so far, for a memory writer (flushes first).
    public var bytes: [UInt8] {
        flush()
        return collected
    }
    /// The first write error, if any (`errno` reason); later writes are dropped.
    public private(set) var writeError: String?
    /// Bytes sent to the sink so far (``flush()`` first to count the buffered ones too).
    public private(set) var bytesWritten = 0
    private var closed = false

    /// Writes to `fileDescriptor` (standard output by default); the descriptor is not closed.
    /// - Parameters:
    ///   - fileDescriptor: an open descriptor to write to (1, standard output, by default).
    ///   - capacity: buffer size in bytes; 64 KiB amortises the system calls.
    public init(fileDescriptor: Int32 = 1, capacity: Int = 65_536) {
        sink = .fileDescriptor(fileDescriptor)
        path = nil
        self.capacity = max(capacity, 64)
        buffer = .allocate(capacity: self.capacity)
    }

    /// Creates (or truncates) the file at `path` and writes to it; ``close()`` flushes and
    /// closes it and reports any write error.
    /// - Parameters:
    ///   - path: the file to create or truncate.
    ///   - capacity: buffer size in bytes; 1 MiB makes the system calls vanish.
    /// - Throws: ``CSVError`` of kind `.io` naming the file when it can't be opened.
    public init(path: String, capacity: Int = 1 << 20) throws(CSVError) {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard fd >= 0 else {
            throw CSVError(.io, line: 0, column: 0, message: "cannot open \(path) for writing: \(String(cString: strerror(errno)))")
        }
        sink = .fileDescriptor(fd)
        self.path = path
        self.capacity = max(capacity, 64)
        buffer = .allocate(capacity: self.capacity)
    }

    /// Collects the output in ``bytes`` (for tests).
    public init(collectingWithCapacity capacity: Int = 65_536) {
        sink = .memory
        path = nil
        self.capacity = max(capacity, 64)
        buffer = .allocate(capacity: self.capacity)
    }

    deinit {
        if path != nil { try? close() } else { flush() }
        buffer.deallocate()
    }

    /// Flushes, and closes the file when this writer opened it (``init(path:capacity:)``).
    /// Writing after closing is an error reported here. Closing twice does nothing.
    /// - Throws: ``CSVError`` of kind `.io` naming the file for the first write or close error.
    public func close() throws(CSVError) {
        guard !closed else { return }
        flush()
        closed = true
        var reason = writeError
        if let path, case .fileDescriptor(let fd) = sink {
            #if canImport(Glibc)
            let rc = Glibc.close(fd)
            #elseif canImport(Musl)
            let rc = Musl.close(fd)
            #else
            let rc = Darwin.close(fd)
            #endif
            if rc != 0 && reason == nil { reason = String(cString: strerror(errno)) }
            if let reason { throw CSVError(.io, line: 0, column: 0, message: "\(path): write failed: \(reason)") }
        } else if let reason {
            throw CSVError(.io, line: 0, column: 0, message: "write failed: \(reason)")
        }
    }

    /// The collected output as text (memory writers; flushes first).
    public var text: String {
        String(decoding: bytes, as: UTF8.self)
    }

    /// Appends raw bytes (no separator, no quoting).
    public func writeRaw(_ data: UnsafeBufferPointer<UInt8>) {
        guard let src = data.baseAddress, data.count > 0 else { return }
        if data.count > capacity - used {
            flush()
            if data.count > capacity {
                emit(UnsafeBufferPointer(start: src, count: data.count))
                return
            }
        }
        (buffer + used).update(from: src, count: data.count)
        used += data.count
    }

    /// Appends the UTF-8 of `text` (no separator, no quoting).
    public func writeRaw(_ text: String) {
        var text = text
        text.withUTF8 { writeRaw($0) }
    }

    @inline(__always)
    func writeByte(_ byte: UInt8) {
        if used == capacity { flush() }
        buffer[used] = byte
        used += 1
    }

    @inline(__always)
    func separate() {
        if atRecordStart { atRecordStart = false } else { writeByte(0x2C) }
    }

    /// Writes a text field, quoted if it contains `,`, `"`, `\r` or `\n`.
    public func writeField(_ text: String) {
        separate()
        let needsQuotes = text.utf8.contains { $0 == 0x2C || $0 == 0x22 || $0 == 0x0A || $0 == 0x0D }
        guard needsQuotes else { return writeRaw(text) }
        writeByte(0x22)
        for byte in text.utf8 {
            if byte == 0x22 { writeByte(0x22) }
            writeByte(byte)
        }
        writeByte(0x22)
    }

    /// Writes a number field with its shortest round-trip form (`Double.description`).
    public func writeField(_ value: Double) {
        separate()
        writeRaw(value.description)
    }

    /// Writes a number field with exactly `decimals` digits after the point (0...15), as
    /// `DecimalFormatting/append(_:decimals:to:)` formats it.
    public func writeField(_ value: Double, decimals: Int) {
        separate()
        scratch.removeAll(keepingCapacity: true)
        DecimalFormatting.append(value, decimals: decimals, to: &scratch)
        scratch.withUnsafeBufferPointer { writeRaw($0) }
    }

    /// Writes an unsigned decimal field.
    public func writeField(_ value: UInt64) {
        separate()
        writeRaw(String(value))
    }

    /// Writes a signed decimal field.
    public func writeField(_ value: Int64) {
        separate()
        scratch.removeAll(keepingCapacity: true)
        DecimalFormatting.append(value, to: &scratch)
        scratch.withUnsafeBufferPointer { writeRaw($0) }
    }

    /// Ends the current record with `\n`.
    public func endRecord() {
        writeByte(0x0A)
        atRecordStart = true
    }

    /// Writes one record of text fields.
    public func writeRecord(_ fields: [String]) {
        for field in fields { writeField(field) }
        endRecord()
    }

    /// Sends buffered bytes to the sink.
    public func flush() {
        guard used > 0 else { return }
        emit(UnsafeBufferPointer(start: buffer, count: used))
        used = 0
    }

    func emit(_ data: UnsafeBufferPointer<UInt8>) {
        bytesWritten += data.count
        switch sink {
        case .memory:
            collected.append(contentsOf: data)
        case .fileDescriptor(let fd):
            guard writeError == nil else { return }
            guard !closed else {
                writeError = "written after close"
                return
            }
            var offset = 0
            while offset < data.count {
                let n = write(fd, data.baseAddress! + offset, data.count - offset)
                if n < 0 {
                    if errno == EINTR { continue }
                    writeError = String(cString: strerror(errno))
                    return
                }
                offset += n
            }
        }
    }
}
