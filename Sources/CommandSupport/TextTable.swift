/// Rows of cells as a fixed-width text table for terminals: the first column left-aligned,
/// the others right-aligned, columns two spaces apart, rows joined by newlines (no trailing
/// newline). The first row is the header and sets the number of columns; a shorter row is
/// padded with empty cells, cells beyond the header's count are dropped. O(cells).
public enum TextTable {
    /// The table text of `rows` (empty for no rows).
    public static func render(_ rows: [[String]]) -> String {
        guard let header = rows.first else { return "" }
        let widths = (0..<header.count).map { c in rows.reduce(0) { max($0, c < $1.count ? $1[c].count : 0) } }
        return rows.map { row in
            (0..<header.count).map { c in
                let cell = c < row.count ? row[c] : ""
                let pad = String(repeating: " ", count: widths[c] - cell.count)
                return c == 0 ? cell + pad : pad + cell
            }.joined(separator: "  ")
        }.joined(separator: "\n")
    }
}
