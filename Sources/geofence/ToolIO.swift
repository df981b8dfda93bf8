#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import FastCSV

/// Where a command reads and writes: CSV input, buffered CSV output, and diagnostics.
struct ToolIO {
    /// CSV input (standard input for the tool).
    let input: CSVReader
    /// Buffered output (standard output for the tool).
    let output: CSVWriter
    /// Buffered diagnostics (standard error for the tool).
    let errors: CSVWriter
    /// Name of the input in messages (`stdin`).
    let inputName: String

    static func standard() -> ToolIO {
        // stderr gets a small buffer: messages appear in order and promptly enough.
        ToolIO(input: .standardInput(), output: CSVWriter(fileDescriptor: 1),
               errors: CSVWriter(fileDescriptor: 2, capacity: 4_096), inputName: "stdin")
    }

    /// Writes one diagnostic line to the error stream.
    func report(_ message: String) {
        errors.writeRaw(message)
        errors.writeRaw("\n")
    }

    /// Flushes both output streams.
    func flush() {
        output.flush()
        errors.flush()
    }
}

/// Process exit statuses.
enum ExitStatus {
    static let success: Int32 = 0
    /// Bad input data or an I/O failure.
    static let failure: Int32 = 1
    /// Bad command line.
    static let usage: Int32 = 2
}
