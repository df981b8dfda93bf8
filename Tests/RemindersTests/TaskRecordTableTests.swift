import Foundation
import Geodesy
import Testing
@testable import Reminders

@Suite struct TaskRecordTableTests {
    /// Random slots written in random order agree with a Dictionary, and two tables with the
    /// same contents inserted in different orders are equal and encode to the same JSON.
    @Test(arguments: [1, 2, 3] as [UInt64])
    func matchesDictionary(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed)
        var table = TaskRecordTable(), oracle: [Int32: ReminderLedger.TaskRecord] = [:]
        for _ in 0..<5_000 {
            let slot = Int32(rng.next() % (rng.next() % 2 == 0 ? 50 : 100_000))
            let t = Double(rng.next() % 1_000_000)
            table[slot, default: .init()].lastNudgeTime = t
            oracle[slot, default: .init()].lastNudgeTime = t
            let probe = Int32(rng.next() % 100_000)
            #expect(table[probe] == oracle[probe], "seed \(seed), slot \(probe)")
        }
        #expect(table.count == oracle.count)
        var reversed = TaskRecordTable()
        for (slot, record) in oracle.sorted(by: { $0.key > $1.key }) { reversed[slot] = record }
        #expect(reversed == table)
        #expect(try JSONDecoder().decode(TaskRecordTable.self, from: try JSONEncoder().encode(table)) == table)
        // Same contents, same JSON (small tables: a failing comparison of large data is slow to print).
        var small = TaskRecordTable(), smallReversed = TaskRecordTable()
        for (slot, record) in oracle.sorted(by: { $0.key < $1.key }).prefix(12) { small[slot] = record }
        for (slot, record) in oracle.sorted(by: { $0.key < $1.key }).prefix(12).reversed() { smallReversed[slot] = record }
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        #expect(String(decoding: try encoder.encode(small), as: UTF8.self) == String(decoding: try encoder.encode(smallReversed), as: UTF8.self))
        #expect(table[-5] == nil)
        let bad = Data(#"{"slots":[1,1],"records":[{},{}]}"#.utf8)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(TaskRecordTable.self, from: bad) }
    }
}
