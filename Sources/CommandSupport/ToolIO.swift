#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import FastCSV

/// Where a subcommand reads and writes: CSV input, buffered CSV output, and diagnostics.
public struct ToolIO {
    /// CSV input (standard input for the tools).
    public let input: CSVReader
    /// Buffered output (standard output for the tools).
    public let output: CSVWriter
    /// Buffered diagnostics (standard error for the tools).
    public let errors: CSVWriter
    /// Name of the input in messages (`stdin`).
    public let inputName: String

    /// Streams of the given readers and writers.
    public init(input: CSVReader, output: CSVWriter, errors: CSVWriter, inputName: String) {
        self.input = input
        self.output = output
        self.errors = errors
        self.inputName = inputName
    }

    /// Standard input, output and error.
    public static func standard() -> ToolIO {
        // stderr gets a small buffer: messages appear in order and promptly enough.
        ToolIO(
            input: .standardInput(), output: CSVWriter(fileDescriptor: 1),
            errors: CSVWriter(fileDescriptor: 2, capacity: 4_096), inputName: "stdin")
    }

    /// Writes one diagnostic line to the error stream.
    public func report(_ message: String) {
        errors.writeRaw(message)
        errors.writeRaw("\n")
    }

    /// Flushes both output streams.
    public func flush() {
        output.flush()
        errors.flush()
    }
}
