// libFuzzer harness of the service's request bodies (Server/Sources/ResponderService/Requests.swift,
// compiled alone into module ResponderService by scripts/fuzz-libs). Any bytes as the body of each
// POST: a request or a RequestError (400, naming a field); a location batch is then logged and
// ingested by a ResponderServer over a memory store, which is advanced through time.
import Geodesy
import JSON
import Responders

#if canImport(Glibc)
import Glibc
#endif

/// SQLDatabase.swift's, which this harness does not compile.
func jsonString(_ s: String) -> String { JSONObject.string(s) }

func refused(_ error: RequestError) {
    check(error.status == 400, "status \(error.status) for a body")
    check(!error.field.isEmpty, "no field named: \(error)")
    _ = try! JSONValue.parse(Array(error.json.utf8))
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let body = Array(UnsafeBufferPointer(start: data, count: size))
    do {
        let batch = try LocationBatch(body: body)
        if let t = batch.telemetry {
            _ = t.logLine
            _ = TrackingReason(t).name
        }
        var server = ResponderServer(store: MemoryServerStore())
        _ = try server.ingest(batch.fixes, receivedAt: 1_000)
        for fix in batch.fixes {
            check(fix.fix.latitude.isFinite && fix.fix.longitude.isFinite && fix.fix.time.isFinite, "a non-finite fix accepted")
        }
        server.advance(to: 2_000)
        _ = server.firingAlerts(now: 2_000)
        server.advance(to: 1e12)
        _ = server.firingAlerts(now: 1e12)
    } catch let error as RequestError {
        refused(error)
    } catch {
        check(false, "not a RequestError: \(error)")
    }
    do {
        let incident = try IncidentRequest(body: body)
        check(incident.ackTimeout.isFinite && incident.ackTimeout > 0, "ack timeout \(incident.ackTimeout)")
        _ = UnitVector(incident.location)
    } catch {
        refused(error)
    }
    do {
        _ = try AckRequest(body: body)
    } catch {
        refused(error)
    }
    return 0
}
