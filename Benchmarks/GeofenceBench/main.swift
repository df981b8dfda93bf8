#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CommandSupport

/// geofence-bench: streams GPS fixes through the package's indexes and reports throughput,
/// memory and accuracy. Thin over Simulation and the libraries: parse, call, print.
exit(BenchTool.main(Array(CommandLine.arguments.dropFirst())))
