#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Sizes that options ask for, checked against what the machine can hold before anything is
/// allocated: `count × bytesEach` computed with overflow checks and compared with the physical
/// memory, so that `--fixes 9223372036854775807` is a usage error naming the option and the
/// limit instead of a trap, a heap corruption or an hour of swapping.
public enum MemoryBudget {
    /// Bytes of physical memory of this machine (`sysconf`), or 2^63 - 1 when unknown.
    public static var physicalBytes: Int {
        let pages = sysconf(Int32(_SC_PHYS_PAGES)), size = sysconf(Int32(_SC_PAGESIZE))
        guard pages > 0, size > 0 else { return .max }
        let (bytes, overflow) = pages.multipliedReportingOverflow(by: size)
        return overflow ? .max : bytes
    }

    /// The largest `count` of option `--name` whose `count × bytesEach` bytes fit in the
    /// physical memory.
    public static func largestCount(bytesEach: Int) -> Int {
        precondition(bytesEach > 0, "bytesEach must be positive")
        return physicalBytes / bytesEach
    }

    /// Checks that `count` items of `bytesEach` bytes (what option `--name` asks for) fit in
    /// the physical memory.
    /// - Returns: the byte count.
    /// - Throws: ``UsageError`` naming the option, the bytes asked and the largest count allowed.
    @discardableResult
    public static func check(_ count: Int, bytesEach: Int, option name: String) throws(UsageError) -> Int {
        let (bytes, overflow) = count.multipliedReportingOverflow(by: bytesEach)
        let limit = largestCount(bytesEach: bytesEach)
        guard !overflow, count <= limit else {
            let asked = overflow ? "more than 2^63 bytes" : "\(bytes / (1 << 20)) MiB"
            throw UsageError(
                "option '--\(name)' asks for \(count) items of \(bytesEach) bytes (\(asked)); "
                    + "this machine holds at most \(limit) (\(physicalBytes / (1 << 20)) MiB of memory)")
        }
        return bytes
    }
}
