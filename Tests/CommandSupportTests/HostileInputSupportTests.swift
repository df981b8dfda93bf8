import CommandSupport
import Foundation
import Testing

/// The command-line guards both tools share: outputs that are inputs, sizes the machine cannot
/// hold, and the dispatcher's statuses.
@Suite struct HostileInputSupportTests {
    @Test func anOutputNamingAnInputIsRefusedWhateverItsSpelling() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("identity-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let input = dir + "/a.csv"
        try "x\n".write(toFile: input, atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: dir + "/link.csv", withDestinationPath: input)
        for spelling in [input, dir + "/./a.csv", dir + "/link.csv"] {
            #expect(throws: UsageError.self) {
                try FileIdentity.refuseOverwriting(spelling, option: "out", inputs: [("fences", input)])
            }
        }
        do {
            try FileIdentity.refuseOverwriting(input, option: "out", inputs: [("fences", input)])
        } catch {
            #expect(error.message.contains("'--out'") && error.message.contains("'--fences'"))
        }
        try FileIdentity.refuseOverwriting(dir + "/new.csv", option: "out", inputs: [("fences", input)])  // a new file
        try FileIdentity.refuseOverwriting(nil, option: "out", inputs: [("fences", input)])
        try "y\n".write(toFile: dir + "/b.csv", atomically: true, encoding: .utf8)
        try FileIdentity.refuseOverwriting(dir + "/b.csv", option: "out", inputs: [("fences", input), ("pois", nil)])
    }

    @Test func sizesPastTheMachineAreUsageErrorsNamingTheOption() throws {
        #expect(MemoryBudget.physicalBytes > 1 << 20)
        #expect(try MemoryBudget.check(1_000, bytesEach: 128, option: "fixes") == 128_000)
        for count in [Int.max, Int.max / 128 + 1, MemoryBudget.largestCount(bytesEach: 128) + 1] {
            #expect {
                try MemoryBudget.check(count, bytesEach: 128, option: "fixes")
            } throws: { error in
                (error as? UsageError)?.message.hasPrefix("option '--fixes' asks for \(count) items") == true
            }
        }
    }
}
