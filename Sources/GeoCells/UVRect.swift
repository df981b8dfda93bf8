/// A point in a cube face's (u, v) coordinate plane. Both coordinates are in [-1, 1] for
/// points on the face (S2's `R2Point` in cube space).
public struct UVPoint: Hashable, Sendable {
    /// Face coordinate u, in [-1, 1] on a face.
    public var u: Double
    /// Face coordinate v, in [-1, 1] on a face.
    public var v: Double

    /// The point (u, v).
    @inlinable
    public init(u: Double, v: Double) {
        self.u = u
        self.v = v
    }
}

/// A closed rectangle `[uLo, uHi] x [vLo, vHi]` in a cube face's (u, v) plane: the bounds of
/// an S2 cell in face coordinates (S2's `R2Rect`). The rectangle is empty when a low end
/// exceeds its high end; cells always have `uLo < uHi` and `vLo < vHi`.
public struct UVRect: Hashable, Sendable {
    /// Lower u bound.
    public var uLo: Double
    /// Upper u bound.
    public var uHi: Double
    /// Lower v bound.
    public var vLo: Double
    /// Upper v bound.
    public var vHi: Double

    /// The rectangle `[uLo, uHi] × [vLo, vHi]` (empty when a lower bound exceeds its upper one).
    @inlinable
    public init(uLo: Double, uHi: Double, vLo: Double, vHi: Double) {
        self.uLo = uLo
        self.uHi = uHi
        self.vLo = vLo
        self.vHi = vHi
    }

    /// S2-style indexed access: `self[axis, end]` with axis 0 = u, 1 = v and end 0 = lo,
    /// 1 = hi (S2's `uv_[axis][end]`).
    @inlinable
    public subscript(axis: Int, end: Int) -> Double {
        get {
            if axis == 0 { return end == 0 ? uLo : uHi }
            return end == 0 ? vLo : vHi
        }
        set {
            if axis == 0 {
                if end == 0 { uLo = newValue } else { uHi = newValue }
            } else {
                if end == 0 { vLo = newValue } else { vHi = newValue }
            }
        }
    }

    /// The center, computed as S2's `R2Rect::GetCenter` (`0.5 * (lo + hi)` per axis).
    @inlinable
    public var center: UVPoint { UVPoint(u: 0.5 * (uLo + uHi), v: 0.5 * (vLo + vHi)) }

    /// Vertex `k` (0...3) counter-clockwise from `(uLo, vLo)`: (lo,lo), (hi,lo), (hi,hi),
    /// (lo,hi), as S2's `R2Rect::GetVertex(k)`.
    @inlinable
    public func vertex(_ k: Int) -> UVPoint {
        let j = (k >> 1) & 1
        let i = j ^ (k & 1)
        return UVPoint(u: i == 0 ? uLo : uHi, v: j == 0 ? vLo : vHi)
    }

    /// Whether the closed rectangle contains `p`.
    @inlinable
    public func contains(_ p: UVPoint) -> Bool {
        p.u >= uLo && p.u <= uHi && p.v >= vLo && p.v <= vHi
    }

    /// This rectangle grown by `margin` on every side (S2's `R2Rect::Expanded(double)`;
    /// a negative margin shrinks it).
    @inlinable
    public func expanded(by margin: Double) -> UVRect {
        UVRect(uLo: uLo - margin, uHi: uHi + margin, vLo: vLo - margin, vHi: vHi + margin)
    }
}
