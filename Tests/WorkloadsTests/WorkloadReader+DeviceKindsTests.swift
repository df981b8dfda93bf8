import Foundation
import Testing
@testable import Workloads

/// ``WorkloadReader/readDeviceKinds(path:)``: the repository's devices file and bad rows.
@Suite struct WorkloadReaderDeviceKindsTests {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    let scratch: ScratchDirectory
    init() throws { scratch = try ScratchDirectory() }

    /// Data/gps/devices.csv: device 1 the hand-held track, 2 the car, 3-14 AIS vessels
    /// (Data/gps/README.md); quoted-free text with commas only as separators.
    @Test func repositoryDevices() throws {
        let kinds = try WorkloadReader.readDeviceKinds(path: Self.packageRoot.appendingPathComponent("Data/gps/devices.csv").path)
        #expect(kinds.count == 14)
        #expect(kinds[1] == "hand-held" && kinds[2] == "car")
        #expect((3...14).allSatisfy { kinds[Int32($0)] == "vessel" })
    }

    @Test func badRowsNameLineAndColumn() throws {
        let repeated = try scratch.write("device,kind\n1,car\n1,vessel\n")
        #expect(throws: WorkloadIOError.badRow(path: repeated, line: 3, column: "device", message: "device 1 repeats line 2")) {
            try WorkloadReader.readDeviceKinds(path: repeated)
        }
        let empty = try scratch.write("kind,device\ncar,1\n,2\n")
        #expect(throws: WorkloadIOError.badRow(path: empty, line: 3, column: "kind", message: "empty kind")) {
            try WorkloadReader.readDeviceKinds(path: empty)
        }
        let noKind = try scratch.write("device\n1\n")
        #expect(throws: WorkloadIOError.missingColumn(path: noKind, column: "kind")) { try WorkloadReader.readDeviceKinds(path: noKind) }
        #expect(try WorkloadReader.readDeviceKinds(path: try scratch.write("device,kind\n")).isEmpty)
    }
}
