#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Which file a path names: its device and inode (`stat`), so that two different spellings of
/// one file (`a.csv`, `./a.csv`, a hard or symbolic link) compare equal.
public struct FileIdentity: Hashable, Sendable {
    /// The device holding the file.
    public let device: UInt64
    /// The file's inode on that device.
    public let inode: UInt64

    /// The identity of the file at `path` (symbolic links followed), or nil when nothing is there.
    public init?(path: String) {
        var s = stat()
        guard stat(path, &s) == 0 else { return nil }
        device = UInt64(truncatingIfNeeded: s.st_dev)
        inode = UInt64(truncatingIfNeeded: s.st_ino)
    }

    /// Refuses to write `output` (the value of option `outputOption`) when it names one of
    /// `inputs` (option name and path, or an operand's placeholder in capitals such as `FILE`;
    /// nil paths are skipped): writing would destroy the input while it is read.
    /// - Throws: ``UsageError`` naming both options and the path.
    public static func refuseOverwriting(
        _ output: String?, option outputOption: String,
        inputs: [(option: String, path: String?)]
    ) throws(UsageError) {
        guard let output, let target = FileIdentity(path: output) else { return }  // a new file is no input
        for (option, path) in inputs {
            guard let path, FileIdentity(path: path) == target else { continue }
            let input = option.allSatisfy(\.isUppercase) ? "the input \(option)" : "the input of '--\(option)'"
            throw UsageError("option '--\(outputOption)' names \(input) (\(output)): refusing to overwrite an input")
        }
    }
}
