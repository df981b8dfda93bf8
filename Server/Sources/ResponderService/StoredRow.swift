/// One row of a query, read column by column as what its table holds.
///
/// The service's own rows always read (the columns' types and NOT NULL see to that); a row
/// written outside it may not: a NULL or text where a number belongs, a duty that is not one of
/// the names, a latitude of 95. Such a value is a ``StoreError`` (operation `read TABLE`)
/// naming the row by its key, the column and the value found, never a row quietly dropped or a
/// value replaced by a default.
struct StoredRow {
    /// The table, for the message.
    let table: String
    /// The row's key as the message names it, e.g. `responder 3, seq 7`.
    let key: String
    let values: [SQLValue]

    /// The error for `column` (the index into the query's columns, named `name`) holding a
    /// value that is not `expected`.
    func unreadable(_ column: Int, _ name: String, expected: String) -> StoreError {
        // As the database would print it (PostgreSQL hands every value over as text): a number
        // bare, other text quoted and cut at 40 characters.
        let found: String
        switch values[column] {
        case .null: found = "NULL"
        case .int(let v): found = String(v)
        case .double(let v): found = v == v.rounded() && abs(v) < 1e15 ? String(Int64(v)) : String(v)
        case .text(let s) where Double(s) != nil: found = s
        case .text(let s): found = "'\(s.count > 40 ? s.prefix(40) + "..." : s)'"
        }
        return StoreError("read \(table)", "row (\(key)): column \(name) holds \(found), expected \(expected)", isUnreadableRow: true)
    }

    /// The integer in `column`.
    func int(_ column: Int, _ name: String) throws(StoreError) -> Int64 {
        guard let v = values[column].int, values[column].double == Double(v) else {
            throw unreadable(column, name, expected: "an integer")
        }
        return v
    }

    /// The finite number in `column`, within `range`.
    func double(_ column: Int, _ name: String, in range: ClosedRange<Double> = -.greatestFiniteMagnitude...(.greatestFiniteMagnitude))
        throws(StoreError) -> Double
    {
        guard let v = values[column].double, range.contains(v) else {
            let bounds = range.lowerBound == -.greatestFiniteMagnitude ? "a finite number" : "a number in \(range)"
            throw unreadable(column, name, expected: bounds)
        }
        return v
    }

    /// The text in `column` (not NULL).
    func text(_ column: Int, _ name: String) throws(StoreError) -> String {
        guard let v = values[column].text else { throw unreadable(column, name, expected: "text") }
        return v
    }

    /// The case of `T` whose `name` is the text in `column`.
    func named<T: CaseIterable>(_ column: Int, _ name: String, _ caseName: (T) -> String) throws(StoreError) -> T {
        if let text = values[column].text, let value = T.allCases.first(where: { caseName($0) == text }) { return value }
        throw unreadable(column, name, expected: "one of " + T.allCases.map(caseName).joined(separator: ", "))
    }
}
