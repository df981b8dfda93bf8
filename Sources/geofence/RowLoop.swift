import CommandSupport
import FastCSV

/// A rejected row: the column (by name) and what was wrong.
struct RowError: Error {
    let column: String
    let message: String
}

/// The shared loop of every subcommand: read numeric rows, call `body` per row, report bad rows.
///
/// Contract (README's command-line section): the header line is optional (see ``CSVNumericReader``);
/// a bad row is reported on stderr as `stdin:LINE:COLUMN: message` (COLUMN the field's name, or
/// its 1-based index when it has none, e.g. an extra field). Without `--skip-invalid` the first
/// bad row stops the run with status 1 (rows before it are already written). With it, bad rows
/// are reported, skipped and counted, `skipped N invalid rows` ends stderr, and the status is 0.
/// Structural CSV errors (an unterminated quote, text after a closing quote) and I/O errors
/// always stop the run with status 1.
struct RowLoop {
    let columns: [String]
    let skipInvalid: Bool

    /// `body` gets the row's values in `columns` order and must write nothing if it throws.
    func run(_ io: ToolIO, _ body: ([Double], CSVWriter) throws(RowError) -> Void) -> Int32 {
        let rows = CSVNumericReader(reader: io.input, columns: columns)
        var skipped = 0
        var status = ExitStatus.success
        loop: while true {
            do {
                guard try rows.next() else { break }
                try checkedBody(rows, io, body)
            } catch {
                io.report(error.formatted(source: io.inputName))
                let rowLevel = error.kind == .fieldCount || error.kind == .invalidValue
                if rowLevel && skipInvalid {
                    skipped += 1
                    continue
                }
                status = ExitStatus.failure
                break loop
            }
        }
        if skipInvalid && status == ExitStatus.success {
            io.report("skipped \(skipped) invalid rows")
        }
        io.flush()
        if let reason = io.output.writeError {
            io.report("geofence: cannot write output: \(reason)")
            io.flush()
            return ExitStatus.failure
        }
        return status
    }

    /// Runs `body`, turning a ``RowError`` into a ``CSVError`` at the row's line.
    private func checkedBody(
        _ rows: CSVNumericReader, _ io: ToolIO,
        _ body: ([Double], CSVWriter) throws(RowError) -> Void
    ) throws(CSVError) {
        do {
            try body(rows.values, io.output)
        } catch {
            let index = columns.firstIndex(of: error.column) ?? -1
            throw CSVError(
                .invalidValue, line: rows.line, column: index + 1, columnName: error.column,
                message: error.message)
        }
    }
}
