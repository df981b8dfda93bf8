// libFuzzer harness of Responders' TelemetryEnvelope (compiled into module Responders by
// scripts/fuzz-libs): any bytes decoded as JSON (JSONEncoding, snake-case keys or not), and
// what decodes written as a log line, turned into a TrackingReason, encoded and decoded again.
import JSON

#if canImport(Glibc)
import Glibc
#endif

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    for snake in [false, true] {
        guard let t = try? JSONEncoding.decode(TelemetryEnvelope.self, from: bytes, snakeCaseKeys: snake) else { continue }
        _ = t.logLine
        _ = TrackingReason(t).name
        _ = DeviceConditions(permission: t.permission, locationServicesEnabled: t.locationServicesEnabled, powerMode: t.powerMode, appState: t.appState).canTrack
        if let text = try? JSONEncoding.prettyText(t, snakeCaseKeys: snake), t.oldestEntryAge.isFinite {
            let back = try? JSONEncoding.decode(TelemetryEnvelope.self, from: Array(text.utf8), snakeCaseKeys: snake)
            check(back == t, "round trip of \(t): \(text)")
        }
    }
    return 0
}
