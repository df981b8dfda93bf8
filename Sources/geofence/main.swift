#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import CommandSupport

// Entry point: parse, run, exit with the tool's status (0 ok, 1 bad data or I/O, 2 usage).
exit(GeofenceTool.main(Array(CommandLine.arguments.dropFirst()), io: ToolIO.standard()))
