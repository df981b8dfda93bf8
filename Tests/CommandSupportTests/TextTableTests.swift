import CommandSupport
import Testing

@Suite struct TextTableTests {
    @Test func alignsFirstColumnLeftOthersRight() {
        let text = TextTable.render([["name", "n"], ["a", "1000"], ["longer", "2"]])
        #expect(text == "name       n\na       1000\nlonger     2")
    }

    @Test func raggedRowsAndEmptyInput() {
        #expect(TextTable.render([]) == "")
        #expect(TextTable.render([["a", "b"], ["x"], ["y", "z", "dropped"]]) == "a  b\nx   \ny  z")
    }
}
