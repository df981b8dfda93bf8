import Foundation
import Testing
import Geodesy
import Responders
@testable import ResponderService

/// `--regions FILE`: the CSV's regions in file order, and each mistake named by file, line and
/// column.
@Suite struct AlertRegionsFileTests {
    static func circle(_ name: String, _ lat: Double, _ lon: Double, _ radius: Double) -> AlertRegion {
        AlertRegion(name: name, shape: .circle(center: LatLng(uncheckedLatitude: lat, longitude: lon), radiusMeters: radius))
    }

    /// Writes `text` to a scratch file, reads it back as regions.
    static func read(_ text: String, in scratch: ScratchDirectory) throws(StoreError) -> [AlertRegion] {
        let path = scratch.file("regions.csv")
        try! Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return try AlertRegionsFile.read(path: path)
    }

    @Test func readsTheRegionsInFileOrderWithOrWithoutAHeader() throws {
        let scratch = ScratchDirectory()
        defer { scratch.cleanup() }
        let expected = [
            Self.circle("center", 60.17, 24.94, 5_000), Self.circle("pole, north", 90, -180, 0.5),
            Self.circle("date line", -45.5, 180, 1e6)
        ]
        let rows = "center,60.17,24.94,5000\n\"pole, north\",90,-180,0.5\ndate line,-45.5,180,1e6\n"
        #expect(try Self.read("name,lat,lon,radius_m\n" + rows, in: scratch) == expected)
        #expect(try Self.read(rows, in: scratch) == expected)
        // A header only, or nothing at all: no regions.
        #expect(try Self.read("name,lat,lon,radius_m\n", in: scratch).isEmpty)
        #expect(try Self.read("", in: scratch).isEmpty)
    }

    /// Each bad record: `--regions: FILE:LINE[:COLUMN]: message`, at the first bad field.
    @Test(arguments: [
        ("name,lat,lon,radius_m\ncenter,60.17,24.94\n", "2: expected 4 fields (name,lat,lon,radius_m), found 3"),
        ("a,1,2,3\nb,1,2,3,4\n", "2: expected 4 fields (name,lat,lon,radius_m), found 5"),
        ("center,north,24.94,5000\n", "1:2: lat: expected degrees in -90...90, found 'north'"),
        ("a,1,2,3\ncenter,90.5,24.94,5000\n", "2:2: lat: expected degrees in -90...90, found '90.5'"),
        ("center,60.17,-180.01,5000\n", "1:3: lon: expected degrees in -180...180, found '-180.01'"),
        ("center,60.17,,5000\n", "1:3: lon: expected degrees in -180...180, found ''"),
        ("center,60.17,24.94,0\n", "1:4: radius_m: expected finite meters > 0, found '0'"),
        ("center,60.17,24.94,-5\n", "1:4: radius_m: expected finite meters > 0, found '-5'"),
        ("center,60.17,24.94,1e999\n", "1:4: radius_m: expected finite meters > 0, found '1e999'"),
        ("center,60.17,24.94,5 km\n", "1:4: radius_m: expected finite meters > 0, found '5 km'"),
        // Names are label values of the metric: one series each, never empty.
        ("a,1,2,3\nb,1,2,3\na,4,5,6\n", "3:1: name: 'a' repeats the region of line 1"),
        ("name,lat,lon,radius_m\n,1,2,3\n", "2:1: name: expected a region name, found ''"),
        ("a,1,2,3\n\"center,60.17,24.94,5000\n", "2:1: expected a closing '\"' for the quote opened on line 2, found the end of the input")
    ])
    func eachMistakeNamesFileLineAndColumn(text: String, place: String) throws {
        let scratch = ScratchDirectory()
        defer { scratch.cleanup() }
        let error = #expect(throws: StoreError.self) { try Self.read(text, in: scratch) }
        #expect(error?.operation == "--regions")
        #expect(error?.message == scratch.file("regions.csv") + ":" + place)
    }

    @Test func aNameThatIsNotUTF8IsNamedByItsPlace() throws {
        let scratch = ScratchDirectory()
        defer { scratch.cleanup() }
        let path = scratch.file("regions.csv")
        try Data([0x61, 0x2C, 0x31, 0x2C, 0x32, 0x2C, 0x33, 0x0A, 0xFF, 0xFE, 0x2C, 0x31, 0x2C, 0x32, 0x2C, 0x33, 0x0A])
            .write(to: URL(fileURLWithPath: path))
        let error = #expect(throws: StoreError.self) { try AlertRegionsFile.read(path: path) }
        #expect(error?.description == "--regions: \(path):2:1: expected UTF-8 text, found an invalid byte sequence")
    }

    @Test func aMissingFileIsNamed() {
        let path = "/nonexistent/regions.csv"
        let error = #expect(throws: StoreError.self) { try AlertRegionsFile.read(path: path) }
        #expect(error?.description == "--regions: cannot open \(path): No such file or directory")
    }

    /// responder-server refuses a bad regions file before it listens: exit 2, the place named.
    @Test func aBadRegionsFileStopsTheServer() throws {
        let scratch = ScratchDirectory()
        defer { scratch.cleanup() }
        let tokens = scratch.file("tokens.csv"), regions = scratch.file("regions.csv")
        try "1,a\n".write(toFile: tokens, atomically: true, encoding: .utf8)
        try "name,lat,lon,radius_m\ncenter,60.17,24.94,-1\n".write(toFile: regions, atomically: true, encoding: .utf8)
        let (status, _, text) = try ServerCommandTests.run([
            "--listen", "127.0.0.1:0", "--store", "sqlite:" + scratch.file("s.db"), "--tokens", tokens, "--regions", regions
        ])
        #expect(status == 2)
        #expect(text == "responder-server: --regions: \(regions):2:4: radius_m: expected finite meters > 0, found '-1'\n")
    }
}
