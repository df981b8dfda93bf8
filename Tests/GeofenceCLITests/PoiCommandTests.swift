import Foundation
import Testing

/// End-to-end tests of `geofence poi`: the built binary on the real extract in Data/, compared
/// byte for byte with golden files (Golden/poi_*, see Golden/README.md), and on every malformed
/// file of the POI loader's fixtures.
@Suite struct PoiCommandTests {
    static let packageRoot = GeofenceCLITests.testsFolder.deletingLastPathComponent().deletingLastPathComponent()
    static let data = packageRoot.appendingPathComponent("Data/pois_osm_all.csv").path
    static let badFolder = packageRoot.appendingPathComponent("Tests/Fixtures/poi_bad")
    static let areas = packageRoot.appendingPathComponent("Data/helsinki_areas.geojson").path

    let cli = GeofenceCLITests()

    func golden(_ name: String) throws -> String { try cli.golden(name) }

    @Test(arguments: [
        (["stats"], "poi_stats_all.txt"),
        (["stats", "--json"], "poi_stats_all.json"),
        (["nearest", "--category", "pharmacy", "--lat", "60.1699", "--lon", "24.9384"], "poi_nearest_pharmacy_helsinki.csv"),
        (
            ["nearest", "--category=atm", "--lat", "43.7384", "--lon", "7.4246", "--limit", "3", "--max-km", "1", "--json"],
            "poi_nearest_atm_monaco.json"
        ),
        (
            ["fences", "--category", "pharmacy", "--lat", "60.1699", "--lon", "24.9384", "--limit", "3"],
            "poi_fences_pharmacy_helsinki.csv"
        )
    ])
    func golden(arguments: [String], expected: String) throws {
        let result = try cli.run(["poi"] + arguments + [Self.data])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr == "")
        // The goldens were made with the relative path; the test passes an absolute one.
        let want = try golden(expected).replacingOccurrences(of: "\"Data/pois_osm_all.csv\"", with: "\"\(Self.data)\"")
            .replacingOccurrences(of: "file: Data/pois_osm_all.csv", with: "file: \(Self.data)")
        #expect(result.stdout == want, "\(arguments)")
    }

    /// The file may come on standard input as `-`.
    /// Issue 5 names the categories in prose ("post office (amenity=post_office)"): a client
    /// that passes `--category "post office"` (or `Post-Office`, `PHARMACY`) gets what
    /// `post_office` (`pharmacy`) gives; an unknown name is still a usage error.
    @Test func categoryNamesAsTheIssueWritesThem() throws {
        let place = ["--lat", "60.1699", "--lon", "24.9384", "--limit", "2", Self.data]
        let canonical = try cli.run(["poi", "nearest", "--category", "post_office"] + place)
        #expect(canonical.status == 0, "\(canonical.stderr)")
        for name in ["post office", "Post-Office", " post_office "] {
            let result = try cli.run(["poi", "nearest", "--category", name] + place)
            #expect(result.status == 0, "\(name): \(result.stderr)")
            #expect(result.stdout == canonical.stdout, "\(name)")
        }
        let upper = try cli.run(["poi", "fences", "--category", "PHARMACY"] + place)
        #expect(upper.stdout == (try cli.run(["poi", "fences", "--category", "pharmacy"] + place)).stdout)
        #expect(try cli.run(["poi", "nearest", "--category", "post"] + place).status == 2)
    }

    @Test func standardInput() throws {
        let text = try String(contentsOfFile: Self.data, encoding: .utf8)
        let result = try cli.run(
            ["poi", "nearest", "--category", "pharmacy", "--lat", "60.1699", "--lon", "24.9384", "-"],
            input: text)
        #expect(result.status == 0)
        #expect(result.stdout == (try golden("poi_nearest_pharmacy_helsinki.csv")))
    }

    /// `stats --json` is one object whose `rows` and `skipped` follow the issue's contract.
    @Test func statsJSONContract() throws {
        let result = try cli.run(["poi", "stats", "--json", "--skip-invalid", Self.badFolder.appendingPathComponent("bad_nan_inf.csv").path])
        #expect(result.status == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(object["rows"] as? Int == 6)
        #expect(object["skipped"] as? [String: Int] == ["non_finite_coordinate": 2])
        #expect(result.stderr.split(separator: "\n").count == 2)
    }

    /// Every poi_bad file: strict runs fail with FILE:LINE:COLUMN as EXPECTED.csv says; skip runs
    /// load the expected number of rows (or still fail for unreadable files).
    @Test func everyMalformedFile() throws {
        let expected = try String(contentsOf: Self.badFolder.appendingPathComponent("EXPECTED.csv"), encoding: .utf8)
        var checked = 0
        for line in expected.split(separator: "\n").dropFirst() {
            let f = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            let (file, strict, errorLine, errorColumn, loaded) = (f[0], f[1], f[2], f[3], f[4])
            let path = Self.badFolder.appendingPathComponent(file).path
            let plain = try cli.run(["poi", "stats", "--json", path])
            if strict == "ok" {
                #expect(plain.status == 0 && plain.stderr == "", "\(file)")
                #expect(plain.stdout.contains("\"rows\": \(loaded),"), "\(file)")
            } else {
                #expect(plain.status == 1, "\(file)")
                #expect(plain.stdout == "", "\(file)")
                let prefix = "\(path):\(errorLine):"
                #expect(plain.stderr.hasPrefix(prefix), "\(file): \(plain.stderr)")
                let rest = plain.stderr.dropFirst(prefix.count)
                let column = rest.hasPrefix(" ") ? "" : rest.prefix { $0 != ":" }
                switch file {
                case "bad_semicolon_delimiter.csv": #expect(["osm_type", "osm_id", "lat", "lon", "name"].contains(String(column)))
                case "bad_extra_field.csv": #expect(column == "10")
                default: #expect(String(column) == errorColumn, "\(file): \(plain.stderr)")
                }
                #expect(plain.stderr.split(separator: "\n").count == 1, "\(file)")
            }
            let lenient = try cli.run(["poi", "stats", "--json", "--skip-invalid", path])
            if loaded == "error" {
                #expect(lenient.status == 1, "\(file)")
            } else {
                #expect(lenient.status == 0, "\(file)")
                #expect(lenient.stdout.contains("\"rows\": \(loaded),"), "\(file)")
                #expect(lenient.stderr.split(separator: "\n").count == Int(f[5])!, "\(file): one line per skipped row")
            }
            checked += 1
        }
        #expect(checked == 24)
    }

    @Test func skippedRowsGolden() throws {
        let path = Self.badFolder.appendingPathComponent("bad_lat_out_of_range.csv").path
        let result = try cli.run(["poi", "stats", "--skip-invalid", path])
        #expect(result.status == 0)
        let expected = try golden("poi_stats_bad_lat_skip.txt")
            .replacingOccurrences(of: "Tests/Fixtures/poi_bad/bad_lat_out_of_range.csv", with: path)
        #expect(result.stdout == expected)
        #expect(
            result.stderr == """
                \(path):5:lat: expected a latitude in [-90, 90] degrees, found "-90.5000000"
                \(path):6:lat: expected a latitude in [-90, 90] degrees, found "91.0000000"

                """)
    }

    @Test func usageErrors() throws {
        let cases: [([String], String)] = [
            ([], "expected an action"),
            (["frob", Self.data], "unknown action 'frob'"),
            (["stats"], "missing FILE"),
            (["nearest", "--lat", "1", "--lon", "2", Self.data], "missing required option '--category C'"),
            (["nearest", "--category", "cafe", "--lat", "1", "--lon", "2", Self.data], "unknown category 'cafe'"),
            (["nearest", "--category", "atm", Self.data], "missing required options '--lat L --lon L'"),
            (["nearest", "--category", "atm", "--lat", "91", "--lon", "2", Self.data], "option '--lat' expects a finite number in -90"),
            (["nearest", "--category", "atm", "--lat", "1", "--lon", "nan", Self.data], "option '--lon' expects a finite number in -180"),
            (["nearest", "--category", "atm", "--lat", "1", "--lon", "2", "--limit", "0", Self.data], "option '--limit'"),
            (["nearest", "--category", "atm", "--lat", "1", "--lon", "2", "--max-km", "-1", Self.data], "--max-km expects"),
            (["stats", "--frob", Self.data], "unknown option '--frob'"),
            (["fences", "--json", "--category", "atm", "--lat", "1", "--lon", "2", Self.data], "unknown option '--json'"),
            (["nearest", "--areas", Self.areas, "--category", "atm", "--lat", "1", "--lon", "2", Self.data], "unknown option '--areas'")
        ]
        for (arguments, message) in cases {
            let result = try cli.run(["poi"] + arguments)
            #expect(result.status == 2, "\(arguments)")
            #expect(result.stderr.hasPrefix("geofence poi: "), "\(arguments): \(result.stderr)")
            #expect(result.stderr.contains(message), "\(arguments): \(result.stderr)")
        }
        let missing = try cli.run(["poi", "stats", "/nonexistent.csv"])
        #expect(missing.status == 1 && missing.stderr.hasPrefix("geofence poi: cannot open /nonexistent.csv"))
        let help = try cli.run(["poi", "--help"])
        #expect(help.status == 0 && help.stdout.hasPrefix("USAGE: geofence poi stats"))
    }

    @Test func fencesWithNothingFoundFail() throws {
        let result = try cli.run(["poi", "fences", "--category", "fuel", "--lat", "0", "--lon", "0", "--max-km", "1", Self.data])
        #expect(result.status == 1)
        #expect(result.stdout == "")
        #expect(result.stderr.hasPrefix("geofence poi: \(Self.data): no fuel POI found"))
    }

    /// `fences --areas`: "go to the bank" next to Suomen Pankki, whose outline
    /// (Data/helsinki_areas.geojson, feature id 1511 = its row) is its arrival fence; the other
    /// two banks are nodes and keep their rings. Without the outlines there is no such fence.
    @Test func fencesWithAreasMakeTheOutlineTheArrivalFence() throws {
        let arguments = ["poi", "fences", "--category", "bank", "--lat", "60.17165", "--lon", "24.9513", "--limit", "3"]
        let result = try cli.run(arguments + ["--areas", Self.areas, Self.data])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr == "")
        #expect(result.stdout == (try golden("poi_fences_bank_helsinki_areas.csv")))
        let rows = result.stdout.split(separator: "\n").map { $0.split(separator: ",", omittingEmptySubsequences: false) }
        #expect(rows[0] == ["id", "lat", "lon", "radius_m", "poi_id", "tier", "outline"])
        #expect(rows.filter { $0.last == "1511" }.count == 1)
        let plain = try cli.run(arguments + [Self.data])
        #expect(plain.status == 0 && !plain.stdout.contains("outline") && plain.stdout.split(separator: "\n").count == 10)
    }

    /// Outlines that do not belong to FILE: status 1, the file, line, column, feature and JSON
    /// path on standard error, nothing on standard output.
    @Test func areasOfAnotherFileAreAnError() throws {
        let other = Self.packageRoot.appendingPathComponent("Data/pois_osm.csv").path
        let result = try cli.run(["poi", "fences", "--category", "bank", "--lat", "60.17", "--lon", "24.95", "--areas", Self.areas, other])
        #expect(result.status == 1)
        #expect(result.stdout == "")
        #expect(
            result.stderr
                == "\(Self.areas):2:1: feature 0 at $.features[0].id: id 1510 names no row: the POI file has 126 data rows (ids 0...125)\n")
        let missing = try cli.run([
            "poi", "fences", "--category", "bank", "--lat", "60.17", "--lon", "24.95", "--areas", "/nonexistent.geojson", other
        ])
        #expect(missing.status == 1 && missing.stderr.hasPrefix("geofence poi: cannot open /nonexistent.geojson"), "\(missing.stderr)")
    }

    /// `--polygons-out`: the outline fences as GeoJSON keyed by fence id, the same positions as
    /// the outline in the areas file, which `geofence draw` takes with the CSV.
    @Test func polygonsOutWritesTheOutlineFencesByFenceID() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("poi-polygons-\(getpid())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let polygons = directory.appendingPathComponent("polygons.geojson").path
        let fences = directory.appendingPathComponent("fences.csv").path
        let result = try cli.run([
            "poi", "fences", "--category", "bank", "--lat", "60.17165", "--lon", "24.9513", "--limit", "2", "--areas", Self.areas,
            "--polygons-out", polygons, Self.data
        ])
        #expect(result.status == 0, "\(result.stderr)")
        try result.stdout.write(toFile: fences, atomically: true, encoding: .utf8)
        let written = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: polygons))) as? [String: Any])
        let features = try #require(written["features"] as? [[String: Any]])
        #expect(features.count == 1)
        #expect(features[0]["id"] as? Int == 3)
        #expect((features[0]["properties"] as? [String: String]) == ["place": "way/17359934"])
        // The same positions as feature 1511 of the areas file (rings may start elsewhere or turn).
        func positions(_ feature: [String: Any]) -> Set<String> {
            let geometry = feature["geometry"] as! [String: Any]
            let rings = geometry["coordinates"] as! [[[Double]]]
            return Set(rings.flatMap { $0.map { String(format: "%.7f,%.7f", $0[0], $0[1]) } })
        }
        let areas = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: Self.areas))) as? [String: Any])
        let bank = try #require((areas["features"] as? [[String: Any]])?.first { $0["id"] as? Int == 1511 })
        #expect(positions(features[0]) == positions(bank))
        let draw = try cli.run(["draw", "--fences", fences, "--polygons", polygons, "--out", directory.appendingPathComponent("map.svg").path])
        #expect(draw.status == 0, "\(draw.stderr)")
        // Usage: only with --areas, and never over an input.
        let base = ["poi", "fences", "--category", "bank", "--lat", "60.17", "--lon", "24.95"]
        let noAreas = try cli.run(base + ["--polygons-out", polygons, Self.data])
        #expect(noAreas.status == 2 && noAreas.stderr.contains("--polygons-out needs --areas"), "\(noAreas.stderr)")
        let overwrite = try cli.run(base + ["--areas", Self.areas, "--polygons-out", Self.areas, Self.data])
        #expect(overwrite.status == 2, "\(overwrite.stderr)")
        #expect(overwrite.stderr.contains("option '--polygons-out' names the input of '--areas' (\(Self.areas))"), "\(overwrite.stderr)")
        // The operand FILE is named as such (a copy: the command must leave it as it is).
        let copy = directory.appendingPathComponent("pois.csv").path
        try FileManager.default.copyItem(atPath: Self.data, toPath: copy)
        let overData = try cli.run(base + ["--areas", Self.areas, "--polygons-out", copy, copy])
        #expect(overData.status == 2, "\(overData.stderr)")
        #expect(overData.stderr.contains("option '--polygons-out' names the input FILE (\(copy))"), "\(overData.stderr)")
        #expect(FileManager.default.contentsEqual(atPath: copy, andPath: Self.data))
    }

    /// `stats --areas`: the stats of FILE, then how the outlines matched; the Helsinki outlines
    /// all match rows of the full extract, one of them a POI with a category (the bank).
    @Test func statsWithAreasCountsTheOutlines() throws {
        let text = try cli.run(["poi", "stats", "--areas", Self.areas, Self.data])
        #expect(text.status == 0 && text.stderr.isEmpty, "\(text.stderr)")
        let plain = try golden("poi_stats_all.txt").replacingOccurrences(of: "file: Data/pois_osm_all.csv", with: "file: \(Self.data)")
        #expect(text.stdout == plain + "outlines: 78 matched, 1 of a POI with a category, 0 unused\n")
        let json = try cli.run(["poi", "stats", "--json", "--areas", Self.areas, Self.data])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(object["outlines"] as? [String: Int] == ["matched": 78, "with_category": 1, "unused": 0])
    }
}
