#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A buffered CSV (or plain text) writer to a file descriptor or to memory.
///
/// Representation: a fixed 64 KiB byte buffer flushed with `write(2)` when full, on ``flush()``
/// and when the writer is released; so output streams and a million rows never need a million
/// rows of memory. Fields are separated by `,` (written by the writer between fields of a record)
/// and records end with `\n`. ``writeField(_:)`` quotes a field containing `,`, `"`, `\r` or `\n`
/// as RFC 4180 requires; numbers are written with Swift's shortest round-trip `description`.
public final class CSVWriter {
    enum Sink {
        case fileDescriptor(Int32)
        case memory
    }

    let sink: Sink
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

    /// Writes to `fileDescriptor` (standard output by default); the descriptor is not closed.
    /// - Parameter capacity: buffer size in bytes; 64 KiB amortises the system calls.
    public init(fileDescriptor: Int32 = 1, capacity: Int = 65_536) {
        sink = .fileDescriptor(fileDescriptor)
        self.capacity = max(capacity, 64)
        buffer = .allocate(capacity: self.capacity)
    }

    /// Collects the output in ``bytes`` (for tests).
    public init(collectingWithCapacity capacity: Int = 65_536) {
        sink = .memory
        self.capacity = max(capacity, 64)
        buffer = .allocate(capacity: self.capacity)
    }

    deinit {
        flush()
        buffer.deallocate()
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

    /// Writes an unsigned decimal field.
    public func writeField(_ value: UInt64) {
        separate()
        writeRaw(String(value))
    }

    /// Writes a signed decimal field.
    public func writeField(_ value: Int64) {
        separate()
        writeRaw(String(value))
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
        switch sink {
        case .memory:
            collected.append(contentsOf: data)
        case .fileDescriptor(let fd):
            guard writeError == nil else { return }
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
