/// A failure of a benchmark run (bad workload file, I/O): printed, and the exit status is 1.
/// Bad command lines are ``UsageError``s (exit status 2).
struct BenchError: Error, CustomStringConvertible {
    /// What failed, naming the file, line and column or the field where there is one.
    let description: String

    init(_ description: String) { self.description = description }
}
