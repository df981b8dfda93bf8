#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Geodesy

/// An angle at the center of the unit sphere, stored as the squared length of its chord.
///
/// Representation: ``length2`` = `(2 sin(θ/2))^2` for a central angle θ in [0, π], so it lies in
/// [0, 4]. Comparisons, addition of a small error and "is point p within the angle of c" need
/// no trigonometry. Two special values sit outside that range: ``negative`` (`length2 == -1`,
/// smaller than every angle; the radius of the empty cap) and ``infinity`` (larger than every
/// angle). The semantics and every floating-point expression follow Google S2's
/// `S1ChordAngle` (s1chord_angle.h/.cc) so that results are bit-identical to S2's.
///
/// Invariant: `0 <= length2 <= 4`, or the value is special (negative or infinity).
public struct ChordAngle: Comparable, Hashable, Sendable, CustomStringConvertible {
    /// The squared chord length (unit sphere), in [0, 4] unless special.
    public let length2: Double

    /// Largest squared chord: the two ends of a diameter are 2 apart.
    public static let maxLength2: Double = 4

    /// Wraps a squared chord length, clamped above at 4 (S2's `FromLength2`).
    /// Negative values other than -1 are not meaningful; -1 is ``negative``.
    @inlinable
    public init(length2: Double) {
        self.length2 = Swift.min(ChordAngle.maxLength2, length2)
    }

    @usableFromInline
    init(uncheckedLength2: Double) { self.length2 = uncheckedLength2 }

    /// The chord angle of a central angle in radians: negative angles give ``negative``,
    /// +infinity gives ``infinity``, angles above π are clamped to π.
    /// Computed as S2 does: `length2 = (2 sin(min(π, θ) / 2))^2`.
    @inlinable
    public init(radians: Double) {
        if radians < 0 {
            self = .negative
        } else if radians == .infinity {
            self = .infinity
        } else {
            let length = 2 * sin(0.5 * Swift.min(Double.pi, radians))
            self.length2 = length * length
        }
    }

    /// The chord angle of a distance on the Earth's surface in meters (sphere of radius
    /// `Earth.meanRadius`, 6,371,008.8 m).
    @inlinable
    public init(meters: Double) {
        self.init(radians: Earth.radians(fromMeters: meters))
    }

    /// The chord angle between two points of the unit sphere: `min(4, |a - b|^2)`.
    @inlinable
    public init(_ a: UnitVector, _ b: UnitVector) {
        self.length2 = Swift.min(ChordAngle.maxLength2, a.chord2(to: b))
    }

    /// The zero angle.
    public static let zero = ChordAngle(uncheckedLength2: 0)
    /// A right angle (90°): chord² = 2.
    public static let right = ChordAngle(uncheckedLength2: 2)
    /// A straight angle (180°): chord² = 4, the largest finite value.
    public static let straight = ChordAngle(uncheckedLength2: 4)
    /// Smaller than every angle: the radius of the empty cap (`length2 == -1`, as in S2).
    public static let negative = ChordAngle(uncheckedLength2: -1)
    /// Larger than every angle.
    public static let infinity = ChordAngle(uncheckedLength2: .infinity)

    /// Whether the angle is zero.
    @inlinable public var isZero: Bool { length2 == 0 }
    /// Whether the angle is negative (the radius of an empty cap).
    @inlinable public var isNegative: Bool { length2 < 0 }
    /// Whether the angle is infinite (larger than any finite one).
    @inlinable public var isInfinity: Bool { length2 == .infinity }
    /// True for ``negative`` and ``infinity``.
    @inlinable public var isSpecial: Bool { isNegative || isInfinity }
    /// True when the value is in [0, 4] or special.
    @inlinable public var isValid: Bool { (length2 >= 0 && length2 <= 4) || isSpecial }

    /// The central angle in radians: `2 asin(sqrt(length2) / 2)`; -1 for ``negative``,
    /// +infinity for ``infinity`` (S2's `ToAngle`).
    @inlinable
    public var radians: Double {
        if isNegative { return -1 }
        if isInfinity { return .infinity }
        return 2 * asin(0.5 * length2.squareRoot())
    }

    /// The angle as a distance on the Earth's surface, in meters (R = `Earth.meanRadius`).
    @inlinable
    public var meters: Double { Earth.meters(fromRadians: radians) }

    /// `sin²(θ)`, computed from the chord without trigonometry: `l2 (1 - l2/4)`.
    @inlinable public var sinSquared: Double { length2 * (1 - 0.25 * length2) }
    /// `sin(θ)`.
    @inlinable public var sine: Double { sinSquared.squareRoot() }
    /// `cos(θ) = 1 - l2/2`.
    @inlinable public var cosine: Double { 1 - 0.5 * length2 }

    /// This angle with `error` added to its squared length, clamped to [0, 4]; special values
    /// are returned unchanged (S2's `PlusError`).
    @inlinable
    public func plusError(_ error: Double) -> ChordAngle {
        if isSpecial { return self }
        return ChordAngle(uncheckedLength2: Swift.max(0, Swift.min(ChordAngle.maxLength2, length2 + error)))
    }

    /// The smallest representable angle larger than this one (``infinity`` after straight,
    /// ``zero`` after negative).
    @inlinable
    public var successor: ChordAngle {
        if length2 >= ChordAngle.maxLength2 { return .infinity }
        if length2 < 0 { return .zero }
        return ChordAngle(uncheckedLength2: length2.nextUp)
    }

    /// The largest representable angle smaller than this one (``negative`` before zero,
    /// ``straight`` before infinity).
    @inlinable
    public var predecessor: ChordAngle {
        if length2 <= 0 { return .negative }
        if length2 > ChordAngle.maxLength2 { return .straight }
        return ChordAngle(uncheckedLength2: length2.nextDown)
    }

    /// Maximum error in `length2` of a chord angle built from two points with
    /// ``init(_:_:)``: 2.5 ulp relative for the squared distance plus 2 ulp for the inputs
    /// (S2's `GetS2PointConstructorMaxError`, `4.5 ε l2 + 16 ε²`).
    @inlinable
    public var pointConstructorMaxError: Double {
        4.5 * Double.ulpOfOne * length2 + 16 * Double.ulpOfOne * Double.ulpOfOne
    }

    /// Sum of two (non-special) angles, clamped at 180° (S2's `operator+`): exact chord
    /// formula `c = 2 sin(A + B)` via `sin(A+B) = sin A cos B + sin B cos A`, one square root.
    @inlinable
    public static func + (a: ChordAngle, b: ChordAngle) -> ChordAngle {
        let a2 = a.length2, b2 = b.length2
        if b2 == 0 { return a }
        if a2 + b2 >= maxLength2 { return .straight }
        let x = a2 * (1 - 0.25 * b2)
        let y = b2 * (1 - 0.25 * a2)
        return ChordAngle(uncheckedLength2: Swift.min(maxLength2, x + y + 2 * (x * y).squareRoot()))
    }

    /// Difference of two (non-special) angles, clamped at zero (S2's `operator-`).
    @inlinable
    public static func - (a: ChordAngle, b: ChordAngle) -> ChordAngle {
        let a2 = a.length2, b2 = b.length2
        if b2 == 0 { return a }
        if a2 <= b2 { return .zero }
        let x = a2 * (1 - 0.25 * b2)
        let y = b2 * (1 - 0.25 * a2)
        return ChordAngle(uncheckedLength2: Swift.max(0, x + y - 2 * (x * y).squareRoot()))
    }

    /// Order by squared chord length (the same order as the angles).
    @inlinable
    public static func < (a: ChordAngle, b: ChordAngle) -> Bool { a.length2 < b.length2 }

    /// The squared chord length, for debugging.
    public var description: String { "ChordAngle(length2: \(length2))" }
}
