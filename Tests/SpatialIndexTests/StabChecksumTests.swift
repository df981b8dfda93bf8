import SpatialIndex
import Testing

/// The benchmark checksum's term, against values worked by hand.
@Test func stabChecksumTerm() {
    #expect(StabChecksum.term(fixIndex: 0, fence: 7) == 7)
    #expect(StabChecksum.term(fixIndex: 2, fence: 5) == 2_000_011)
    #expect(StabChecksum.term(fixIndex: 1, fence: -1) == 1_000_003 + 4_294_967_295)
    // Wraps rather than traps.
    #expect(StabChecksum.term(fixIndex: .max, fence: 0) == UInt64.max &* 1_000_003)
}
