import Testing
@testable import GeoCells

@Suite struct HilbertTablesTests {
    @Test func tablesAreMutualInverses() {
        let pos = HilbertTables.lookupPos, ij = HilbertTables.lookupIJ
        #expect(pos.count == 1024 && ij.count == 1024)
        for key in 0..<1024 {
            // (ij, orientation) -> (pos, new orientation) -> back to ij.
            let value = Int(pos[key])
            let back = Int(ij[(value & ~3) | (key & 3)])
            #expect(back >> 2 == key >> 2 && back & 3 == value & 3, "key \(key)")
        }
        for o in 0..<4 {
            for p in 0..<4 {
                #expect(HilbertTables.ijToPos[o][HilbertTables.posToIJ[o][p]] == p)
            }
        }
    }
}
