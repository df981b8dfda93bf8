/// Stable least-significant-digit radix sort of `UInt64` keys by a range of their bits, for the
/// index builds (sorting millions of packed keys without a comparison closure).
///
/// Digits of ``digitBits`` bits from `bits.lowerBound` up; a pass whose digit is the same in
/// every key is skipped (its histogram has one bucket), so keys that vary in few bits cost few
/// passes. Keys equal in the sorted bits keep their input order (stable), which lets a caller
/// sort by a prefix of the key when the input is already in order of the rest.
///
/// - Complexity: O(n) per pass, at most `ceil(bits.count / 11)` passes; one scratch buffer of
///   n keys plus a 2,048-entry histogram.
enum RadixSort {
    /// 11-bit digits: a 16 KB histogram stays in L1, and 62-bit keys take six passes.
    static var digitBits: Int { 11 }

    /// Sorts `keys` by the bits `bits` (bit 0 the least significant), stably.
    static func sort(_ keys: inout [UInt64], bits: Range<Int>) {
        let n = keys.count
        if n < 2 || bits.isEmpty { return }
        let radix = 1 << digitBits
        var scratch = [UInt64](repeating: 0, count: n)
        var counts = [Int](repeating: 0, count: radix)
        var shift = bits.lowerBound
        while shift < bits.upperBound {
            let width = Swift.min(digitBits, bits.upperBound - shift)
            let mask = UInt64(1) << UInt64(width) &- 1
            let s = UInt64(shift)
            let skipped: Bool = keys.withUnsafeBufferPointer { source in
                scratch.withUnsafeMutableBufferPointer { target in
                    counts.withUnsafeMutableBufferPointer { counts in
                        for d in 0..<radix { counts[d] = 0 }
                        for key in source { counts[Int((key >> s) & mask)] &+= 1 }
                        if counts[Int((source[0] >> s) & mask)] == n { return true }  // one digit value
                        var start = 0
                        for d in 0..<radix {
                            let c = counts[d]
                            counts[d] = start
                            start &+= c
                        }
                        for key in source {
                            let d = Int((key >> s) & mask)
                            target[counts[d]] = key
                            counts[d] &+= 1
                        }
                        return false
                    }
                }
            }
            if !skipped { swap(&keys, &scratch) }
            shift += width
        }
    }
}
