@testable import POIData
import Testing
import Geodesy

@Suite struct OSMKeyTableTests {
    /// 100,000 random (type, id) pairs, a third repeated: the table agrees with a Dictionary
    /// through many growths, and ids past 2^61 take the overflow path.
    @Test func agreesWithADictionary() {
        let seed: UInt64 = 42
        var rng = SplitMix64(seed: seed)
        var table = OSMKeyTable()
        var oracle: [String: Int] = [:]
        for line in 0..<100_000 {
            let id: Int64 = line % 1000 == 0 ? Int64.max - Int64(rng.next() % 4) : Int64(rng.next() % 70_000)
            let type = UInt8(rng.next() % 3)
            let key = "\(type)/\(id)"
            let got = table.insert(typeCode: type, id: id, line: line)
            #expect(got == oracle[key], "seed \(seed) line \(line)")
            if oracle[key] == nil { oracle[key] = line }
        }
        #expect(oracle.count > 50_000)
    }

    @Test func typeIsPartOfTheIdentity() {
        var table = OSMKeyTable()
        #expect(table.insert(typeCode: 0, id: 5, line: 2) == nil)
        #expect(table.insert(typeCode: 1, id: 5, line: 3) == nil)
        #expect(table.insert(typeCode: 0, id: 5, line: 4) == 2)
        #expect(table.insert(typeCode: 0, id: 0, line: 5) == nil)
        #expect(table.insert(typeCode: 0, id: 0, line: 6) == 5)
    }
}
