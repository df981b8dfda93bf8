/// Identifies one responder (one phone, one stream of fixes).
///
/// Invariant: `rawValue` is in `0...Int32.max`, so the same number is also the id of the
/// responder's point in a SpatialIndex tree (whose ids keep the sign bit free).
public struct ResponderID: RawRepresentable, Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
    /// The identifier, in `0...Int32.max`.
    public let rawValue: Int32

    /// Nil when `rawValue` is negative.
    @inlinable
    public init?(rawValue: Int32) {
        guard rawValue >= 0 else { return nil }
        self.rawValue = rawValue
    }

    /// - Precondition: `value` is in `0...Int32.max`.
    @inlinable
    public init(_ value: Int) {
        precondition(value >= 0 && value <= Int(Int32.max), "responder id \(value) is outside 0...Int32.max")
        rawValue = Int32(value)
    }

    /// Orders by `rawValue`.
    @inlinable
    public static func < (a: ResponderID, b: ResponderID) -> Bool { a.rawValue < b.rawValue }

    /// `responder N`.
    public var description: String { "responder \(rawValue)" }
}
