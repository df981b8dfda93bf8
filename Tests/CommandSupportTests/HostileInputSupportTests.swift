import CommandSupport
import FastCSV
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

    /// A device is written in place, never replaced by a regular file, and its write error is
    /// thrown: `geofence draw --out /dev/full` exited 0 after renaming a file over the device.
    /// A symbolic link is followed: the file it names is replaced, the link stays a link.
    @Test func aDocumentIsNeverRenamedOverADeviceOrALink() throws {
        if FileManager.default.fileExists(atPath: "/dev/full") {  // Linux
            #expect {
                try TextFile.write("<svg/>", to: "/dev/full")
            } throws: { error in
                "\(error)".hasPrefix("/dev/full: write failed: ")
            }
            let type = try FileManager.default.attributesOfItem(atPath: "/dev/full")[.type] as? FileAttributeType
            #expect(type == .typeCharacterSpecial)
        }
        try TextFile.write("", to: "/dev/null")
        #expect(try FileManager.default.attributesOfItem(atPath: "/dev/null")[.type] as? FileAttributeType == .typeCharacterSpecial)
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("textfile-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try "old".write(toFile: dir + "/target.svg", atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: dir + "/link.svg", withDestinationPath: dir + "/target.svg")
        try TextFile.write("new", to: dir + "/link.svg")
        #expect(try String(contentsOfFile: dir + "/target.svg", encoding: .utf8) == "new")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: dir + "/link.svg") == dir + "/target.svg")
        #expect(throws: TextFile.WriteError.self) { try TextFile.write("x", to: dir) }
        #expect(throws: TextFile.WriteError.self) { try TextFile.write("x", to: dir + "/missing/x.svg") }
    }

    /// A subcommand whose standard output cannot be written fails with status 1 and says so,
    /// whatever status it returned (`geofence contains > /dev/full` exited 0).
    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/dev/full")))
    func aRunWhoseOutputIsLostFails() throws {
        struct Echo: Subcommand {
            static let name = "echo"
            static let abstract = "Writes one line."
            static let help = "USAGE: t echo"
            static let options: [Arguments.Option] = []
            init(arguments: Arguments) throws(UsageError) {}
            func validate() throws(UsageError) {}
            func run(_ io: ToolIO) -> Int32 {
                io.output.writeRaw("a line\n")
                return ExitStatus.success
            }
        }
        let tool = CommandLineTool(name: "t", help: "USAGE: t echo", subcommands: [Echo.self])
        let good = ToolIO(
            input: CSVReader(string: ""), output: CSVWriter(collectingWithCapacity: 64), errors: CSVWriter(collectingWithCapacity: 64),
            inputName: "stdin")
        #expect(tool.main(["echo"], io: good) == ExitStatus.success)
        let fd = open("/dev/full", O_WRONLY)
        try #require(fd >= 0)
        defer { close(fd) }
        let errors = CSVWriter(collectingWithCapacity: 64)
        let full = ToolIO(input: CSVReader(string: ""), output: CSVWriter(fileDescriptor: fd), errors: errors, inputName: "stdin")
        #expect(tool.main(["echo"], io: full) == ExitStatus.failure)
        errors.flush()
        #expect(String(decoding: errors.bytes, as: UTF8.self).hasPrefix("t echo: cannot write standard output: "))
    }
}
