import JSON

/// The window of a ``GeoJSONReader`` over a file: the tokenizer reads `bytes`, which hold the
/// file from absolute offset `windowStart` on. Before the reader reads a value it makes sure the
/// window holds the whole of it (``bufferValue()``), and between features it drops what it has
/// read (``discardRead()``), so that memory holds about one feature and one chunk.
extension GeoJSONReader {
    /// Line bookkeeping at an absolute offset: the line of the byte there and the absolute
    /// offset where that line starts.
    struct LineMark {
        var offset = 0, line = 1, lineStart = 0
    }

    /// Reads the next chunk of the file onto the end of the window (nothing for a reader over
    /// bytes, or at the end of the file).
    mutating func readChunk() throws(GeoJSONError) {
        guard let source, !source.atEnd else { return }
        let position = tokenizer.position
        var bytes = tokenizer.bytes
        tokenizer = JSONTokenizer([])  // `bytes` is now the only reference: appended in place
        defer {
            tokenizer = JSONTokenizer(bytes)
            tokenizer.position = position
        }
        try source.append(to: &bytes)
    }

    /// Whether the file has bytes the window does not hold yet.
    var canRead: Bool { source.map { !$0.atEnd } ?? false }

    /// Makes sure the window holds the next non-blank byte after the position, or the rest of
    /// the file when there is none.
    mutating func bufferNonBlank() throws(GeoJSONError) {
        while tokenizer.peek() == nil && canRead { try readChunk() }
    }

    /// Makes sure the window holds the whole JSON value at the next non-blank byte: through
    /// its closing bracket for an object or array, its closing quote for a string, and the
    /// byte after it for a number or a literal. A malformed value is buffered to the end of the
    /// file, where the tokenizer reports it as it would over the whole text.
    mutating func bufferValue() throws(GeoJSONError) {
        try bufferNonBlank()
        var scan = ValueScan()
        var i = tokenizer.position
        while true {
            let done = tokenizer.bytes.withUnsafeBufferPointer { scan.run($0, from: &i) }
            if done || !canRead { return }
            try readChunk()
        }
    }

    /// Drops the bytes read so far once they fill a chunk, keeping the line bookkeeping.
    mutating func discardRead() {
        guard let source else { return }
        let p = tokenizer.position
        guard p >= source.chunkSize else { return }
        var mark = windowMark
        tokenizer.bytes.withUnsafeBufferPointer { bytes in
            for i in 0..<p where bytes[i] == UInt8(ascii: "\n") {
                mark.line += 1
                mark.lineStart = windowStart + i + 1
            }
        }
        mark.offset = windowStart + p
        if lineMark.offset < mark.offset { lineMark = mark }
        windowMark = mark
        windowStart += p
        tokenizer = JSONTokenizer(Array(tokenizer.bytes[p...]))
    }

    /// The 1-based line and column of window offset `offset`.
    func lineColumn(_ offset: Int) -> (line: Int, column: Int) {
        var mark = windowMark
        tokenizer.bytes.withUnsafeBufferPointer { bytes in
            for i in 0..<min(max(offset, 0), bytes.count) where bytes[i] == UInt8(ascii: "\n") {
                mark.line += 1
                mark.lineStart = windowStart + i + 1
            }
        }
        return (mark.line, windowStart + offset - mark.lineStart + 1)
    }
}

/// Where a scan for the end of one JSON value stands; carried across chunks.
struct ValueScan {
    var depth = 0
    var inString = false, escaped = false
    /// Whether a number or literal has begun at depth 0.
    var inScalar = false

    /// Scans `bytes` from `i` (the value's first byte, then wherever the last call stopped);
    /// true once the value's last byte (or, for a scalar, the byte after it) is in `bytes`.
    mutating func run(_ bytes: UnsafeBufferPointer<UInt8>, from i: inout Int) -> Bool {
        while i < bytes.count {
            let c = bytes[i]
            i += 1
            if inString {
                if escaped {
                    escaped = false
                } else if c == UInt8(ascii: "\\") {
                    escaped = true
                } else if c == UInt8(ascii: "\"") {
                    inString = false
                    if depth == 0 { return true }
                }
                continue
            }
            switch c {
            case UInt8(ascii: "\""):
                if inScalar { return true }
                inString = true
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                if inScalar { return true }
                depth += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                if inScalar { return true }
                depth -= 1
                if depth <= 0 { return true }
            case 0x20, 0x09, 0x0A, 0x0D, UInt8(ascii: ","), UInt8(ascii: ":"):
                if inScalar || depth == 0 { return true }
            default:
                if depth == 0 { inScalar = true }
            }
        }
        return false
    }
}
