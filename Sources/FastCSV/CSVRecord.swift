/// One parsed record: a view of its fields inside the ``CSVReader``'s buffer.
///
/// Representation: a base pointer and `2 * count` byte offsets (start, end) relative to it.
/// Valid only until the next call to ``CSVReader/nextRecord()`` on the reader that returned it
/// (the buffer is then reused): copy out what you keep. Field bytes are raw: quotes removed and
/// doubled quotes collapsed, not checked for UTF-8 (use ``string(at:)`` for a checked `String`).
public struct CSVRecord {
    /// 1-based physical line on which the record starts.
    public let line: Int
    /// Number of fields (at least 1).
    public let count: Int
    @usableFromInline let base: UnsafePointer<UInt8>
    @usableFromInline let bounds: UnsafePointer<Int>

    @usableFromInline
    init(base: UnsafeMutablePointer<UInt8>, bounds: UnsafeMutablePointer<Int>, count: Int, line: Int) {
        self.base = UnsafePointer(base)
        self.bounds = UnsafePointer(bounds)
        self.count = count
        self.line = line
    }

    /// The bytes of field `index` (0-based), valid until the next record is read.
    @inlinable
    public subscript(index: Int) -> UnsafeBufferPointer<UInt8> {
        precondition(index >= 0 && index < count, "field index out of range")
        let start = bounds[2 * index]
        return UnsafeBufferPointer(start: base + start, count: bounds[2 * index + 1] - start)
    }

    /// Field `index` (0-based) parsed by `parseDouble(_:allowingNonFinite:)`; `nil` if not a
    /// number, or if the record has no field `index` (a short row is bad input, not a trap).
    @inlinable
    public func double(at index: Int) -> Double? { index >= 0 && index < count ? parseDouble(self[index]) : nil }

    /// Field `index` (0-based) parsed by ``parseInt64(_:)``; `nil` when the record has no such field.
    @inlinable
    public func int64(at index: Int) -> Int64? { index >= 0 && index < count ? parseInt64(self[index]) : nil }

    /// Field `index` (0-based) parsed by ``parseUInt64(_:)``; `nil` when the record has no such field.
    @inlinable
    public func uint64(at index: Int) -> UInt64? { index >= 0 && index < count ? parseUInt64(self[index]) : nil }

    /// Field `index` (0-based) as a `String`.
    /// - Throws: ``CSVError`` of kind `.invalidUTF8` (this record's line, column `index + 1`),
    ///   or `.fieldCount` when the record has no field `index` (a row shorter than its header).
    public func string(at index: Int) throws(CSVError) -> String {
        guard index >= 0 && index < count else {
            throw CSVError(
                .fieldCount, line: line, column: index + 1,
                message: "expected at least \(index + 1) fields, found \(count)")
        }
        let bytes = self[index]
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw CSVError(
                .invalidUTF8, line: line, column: index + 1,
                message: "expected UTF-8 text, found an invalid byte sequence")
        }
        return text
    }

    /// Field `index` as a `String`, invalid UTF-8 replaced by U+FFFD (for messages); empty
    /// when the record has no field `index`.
    public func lossyString(at index: Int) -> String {
        index >= 0 && index < count ? String(decoding: self[index], as: UTF8.self) : ""
    }

    /// All fields as strings (convenient, allocating; not for hot loops).
    /// - Throws: ``CSVError`` of kind `.invalidUTF8` for the first field that is not UTF-8.
    public var fields: [String] {
        get throws(CSVError) {
            var result: [String] = []
            result.reserveCapacity(count)
            for i in 0..<count { result.append(try string(at: i)) }
            return result
        }
    }

    /// Whether field `index` has exactly the bytes of `text`.
    public func field(_ index: Int, equals text: String) -> Bool {
        let bytes = self[index]
        var text = text
        return text.withUTF8 { $0.elementsEqual(bytes) }
    }
}
