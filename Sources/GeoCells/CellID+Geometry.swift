#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Geodesy

extension CellID {
    /// The cube face, the leaf (i, j) coordinates of a leaf near the cell's center (the cell
    /// itself for a leaf) and the Hilbert-curve orientation of the cell
    /// (`S2CellId::ToFaceIJOrientation`). i and j are in [0, 2^30).
    @inlinable
    public func toFaceIJOrientation() -> (face: Int, i: Int, j: Int, orientation: Int) {
        let face = self.face
        var i = 0, j = 0
        var bits = face & HilbertTables.swapMask
        let table = HilbertTables.lookupIJPointer
        var k = 7  // eight table steps; the first takes the 2 bits below the face
        while k >= 0 {
            // Step 7 reads 2 * (30 - 28) = 4 position bits, the others 8.
            let mask: UInt64 = k == 7 ? 0xF : 0xFF
            bits &+= Int(truncatingIfNeeded: (rawValue >> UInt64(k &* 8 &+ 1)) & mask) << 2
            bits = Int(table[bits])
            i &+= (bits >> 6) << (k &* 4)
            j &+= ((bits >> 2) & 15) << (k &* 4)
            bits &= 3
            k &-= 1
        }
        // A non-leaf id's position ends in "10" followed by zero pairs; each "00" pair
        // flips the swap bit (posToOrientation[0] == swap), so flip once per odd count.
        if lsb & 0x1111_1111_1111_1110 != 0 { bits ^= HilbertTables.swapMask }
        return (face, i, j, bits)
    }

    /// The face and (si, ti) coordinates of the cell's center, in [0, 2^31]
    /// (`S2CellId::GetCenterSiTi`).
    @inlinable
    public func centerSiTi() -> (face: Int, si: UInt32, ti: UInt32) {
        let (face, i, j, _) = toFaceIJOrientation()
        // ToFaceIJOrientation returns one of the two leaves nearest the center; for non-leaf
        // cells the low bit of i (compared with id bit 2) tells which, and delta corrects it.
        let delta: Int
        if isLeaf {
            delta = 1
        } else if ((UInt64(truncatingIfNeeded: i) ^ (rawValue >> 2)) & 1) != 0 {
            delta = 2
        } else {
            delta = 0
        }
        return (
            face, UInt32(truncatingIfNeeded: 2 &* i &+ delta),
            UInt32(truncatingIfNeeded: 2 &* j &+ delta)
        )
    }

    /// The center in (s, t) coordinates of its face (`GetCenterST`).
    @inlinable
    public var centerST: (s: Double, t: Double) {
        let c = centerSiTi()
        return (S2Projection.siTiToST(c.si), S2Projection.siTiToST(c.ti))
    }

    /// The center in (u, v) coordinates of its face (`GetCenterUV`).
    @inlinable
    public var centerUV: UVPoint {
        let c = centerSiTi()
        return UVPoint(
            u: S2Projection.stToUV(S2Projection.siTiToST(c.si)),
            v: S2Projection.stToUV(S2Projection.siTiToST(c.ti)))
    }

    /// The center in (s, t) space as a point, not unit length (`ToPointRaw`).
    @inlinable
    public var centerPointRaw: UnitVector {
        let c = centerSiTi()
        return S2Projection.faceSiTiToXYZ(c.face, c.si, c.ti)
    }

    /// The center in (s, t) space as a unit vector (`ToPoint`, normalized as S2 does).
    @inlinable
    public var centerPoint: UnitVector { centerPointRaw.normalized }

    /// The latitude/longitude of the center (`ToLatLng`), in degrees.
    @inlinable
    public var centerLatLng: LatLng { centerPointRaw.latLng }

    /// The (u, v) bounds of the cell on its face (`GetBoundUV`).
    @inlinable
    public var boundUV: UVRect {
        let f = toFaceIJOrientation()
        return CellID.ijLevelToBoundUV(i: f.i, j: f.j, level: level)
    }

    /// The (u, v) bounds of the level-`level` cell containing leaf (i, j)
    /// (`IJLevelToBoundUV`).
    @inlinable
    public static func ijLevelToBoundUV(i: Int, j: Int, level: Int) -> UVRect {
        let size = sizeIJ(level: level)
        let iLo = i & -size, jLo = j & -size
        return UVRect(
            uLo: S2Projection.stToUV(S2Projection.ijToSTMin(iLo)),
            uHi: S2Projection.stToUV(S2Projection.ijToSTMin(iLo + size)),
            vLo: S2Projection.stToUV(S2Projection.ijToSTMin(jLo)),
            vHi: S2Projection.stToUV(S2Projection.ijToSTMin(jLo + size)))
    }

    /// The edge length of a level-`level` cell in (s, t) units: 2^-level (`GetSizeST`).
    @inlinable
    public static func sizeST(level: Int) -> Double {
        S2Projection.ijToSTMin(sizeIJ(level: level))
    }
}
