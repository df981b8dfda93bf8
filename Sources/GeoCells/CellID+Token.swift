/// Why ``CellID/init(token:)`` rejected a token.
public enum CellTokenError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The token was empty.
    case empty
    /// More than 16 hex digits (a token encodes at most 64 bits).
    case tooLong(length: Int)
    /// A character other than `0-9a-fA-F` at a 0-based character offset.
    case invalidCharacter(Character, offset: Int)
    /// Well-formed hex that is not a valid cell id (face > 5, level marker at an odd bit,
    /// or zero).
    case invalidCell(UInt64)

    /// The token (lower-case hex, trailing zeros dropped), as S2 prints a cell id.
    public var description: String {
        switch self {
        case .empty: return "empty cell token"
        case .tooLong(let n): return "cell token has \(n) characters, at most 16 allowed"
        case .invalidCharacter(let c, let at):
            return "cell token has non-hex character \(String(reflecting: c)) at offset \(at)"
        case .invalidCell(let id):
            return "cell token decodes to 0x\(CellID.hex(id, digits: 16)), which is not a valid cell id"
        }
    }
}

extension CellID {
    /// The compact text form (`ToToken`): lower-case hex of the id without trailing zero
    /// digits (leading zeros kept, e.g. `"04"`); `"X"` for id 0.
    public var token: String {
        if rawValue == 0 { return "X" }
        let zeroDigits = rawValue.trailingZeroBitCount / 4
        return CellID.hex(rawValue >> UInt64(4 * zeroDigits), digits: 16 - zeroDigits)
    }

    /// Parses a token as S2's `FromToken` does: up to 16 hex digits (either case), read as
    /// the high digits of the id. Returns nil where S2 returns `None()` (empty, too long,
    /// a non-hex character, or all zeros). Does not check validity: `"c"` parses to an
    /// invalid id.
    public static func parseToken(_ s: String) -> CellID? {
        switch decode(s) {
        case .success(let id): return id == 0 ? nil : CellID(rawValue: id)
        case .failure: return nil
        }
    }

    /// Parses a token and requires a valid cell.
    /// - Throws: ``CellTokenError`` naming the problem: empty, too long, a non-hex character
    ///   (with its offset), or hex that decodes to an invalid id.
    public init(token: String) throws(CellTokenError) {
        let id: UInt64
        switch CellID.decode(token) {
        case .success(let value): id = value
        case .failure(let error): throw error
        }
        let cell = CellID(rawValue: id)
        guard cell.isValid else { throw .invalidCell(id) }
        self = cell
    }

    static func decode(_ s: String) -> Result<UInt64, CellTokenError> {
        // S2 limits the length in bytes: 16 hex digits are 64 bits.
        let length = s.utf8.count
        if length == 0 { return .failure(.empty) }
        if length > 16 { return .failure(.tooLong(length: length)) }
        var id: UInt64 = 0
        var shift: UInt64 = 60  // the first digit is the top nibble
        for (offset, c) in s.unicodeScalars.enumerated() {
            let d: UInt64
            switch c.value {
            case 0x30...0x39: d = UInt64(c.value - 0x30)  // '0'...'9'
            case 0x61...0x66: d = UInt64(c.value - 0x61 + 10)  // 'a'...'f'
            case 0x41...0x46: d = UInt64(c.value - 0x41 + 10)  // 'A'...'F'
            default: return .failure(.invalidCharacter(Character(c), offset: offset))
            }
            id |= d << shift
            shift &-= 4
        }
        return .success(id)
    }

    /// `value` as exactly `digits` lower-case hex digits (the low ones, zero-padded).
    @usableFromInline
    static func hex(_ value: UInt64, digits: Int) -> String {
        let alphabet: [UInt8] = Array("0123456789abcdef".utf8)
        var bytes = [UInt8](repeating: 0, count: digits)
        var v = value
        for k in stride(from: digits - 1, through: 0, by: -1) {
            bytes[k] = alphabet[Int(v & 15)]
            v >>= 4
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
