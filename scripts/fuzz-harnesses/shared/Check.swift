// Compiled into every harness by scripts/fuzz-libs: the one way a harness reports a broken
// promise (a crash libFuzzer keeps, with the message on standard error).
#if canImport(Glibc)
import Glibc
#endif

/// Aborts with `message` on standard error unless `condition` holds.
func check(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition {
        fputs("fuzz check failed: \(message())\n", stderr)
        abort()
    }
}
