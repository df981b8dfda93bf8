import Foundation
import Geodesy
import GeoCells
import Testing

/// The API example of README.md, kept here verbatim so it cannot rot: a test compares the block
/// between the markers with README's first Swift block, and the expectations check the values
/// its comments print (2,171,028.3 m, 220.58°, "46920bcc").
@Suite struct ReadmeExampleTests {
    @Test func readmeExample() throws {
        // --- README example begins ---
        let helsinki = try LatLng(latitude: 60.1699, longitude: 24.9384)
        let monaco = try LatLng(latitude: 43.7384, longitude: 7.4246)

        let meters = haversineDistance(helsinki, monaco)  // 2,171,028.3 m (great circle, R = 6,371,008.8 m)
        let bearing = initialBearing(from: helsinki, to: monaco)  // 220.58°, clockwise from north
        let oneMileOut = destination(from: helsinki, bearing: 90, distance: 1609.344)

        let leaf = CellID(helsinki)  // level-30 S2 cell, bit-identical to Google S2
        let token = leaf.parent(level: 13).token  // "46920bcc"
        let fence = Cap(center: helsinki, meters: 1609.344)
        let cells = try RegionCoverer(maxCells: 8).covering(of: fence)  // S2RegionCoverer, cell for cell
        let box = LatLngBox.bounding(center: helsinki, radius: 1609.344)  // right at poles and ±180
        // --- README example ends ---

        #expect(abs(meters - 2_171_028.3) < 0.05)  // the comment's value, to its last digit
        #expect(abs(bearing - 220.58) < 0.005)  // likewise
        #expect(token == "46920bcc")
        #expect(abs(haversineDistance(helsinki, oneMileOut) - 1609.344) < 1e-6)
        #expect(try CellID(token: token) == leaf.parent(level: 13))
        #expect(cells.count <= 8 && cells.contains { $0.contains(leaf) })
        #expect(box.contains(oneMileOut))
    }

    /// The block above and README's first Swift block (after its imports) are the same lines.
    @Test func readmeShowsThisExampleVerbatim() throws {
        let here = URL(fileURLWithPath: #filePath)
        let readme = here.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("README.md")
        let readmeText = try String(contentsOf: readme, encoding: .utf8)
        let testText = try String(contentsOf: here, encoding: .utf8)
        let block = try #require(
            readmeText.components(separatedBy: "```swift\n").dropFirst().first?
                .components(separatedBy: "```").first)
        let readmeLines = block.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            .filter { !$0.hasPrefix("import ") }.drop { $0.isEmpty }
        let begin = try #require(testText.range(of: "// --- README example begins ---\n"))
        let end = try #require(testText.range(of: "        // --- README example ends ---"))
        let testLines = testText[begin.upperBound..<end.lowerBound].split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.hasPrefix("        ") ? String($0.dropFirst(8)) : String($0) }
        #expect(Array(readmeLines) == testLines)
    }
}
