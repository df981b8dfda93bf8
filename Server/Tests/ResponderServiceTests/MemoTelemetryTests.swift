import Responders
import ResponderService
import Testing

/// The memo's batch telemetry, with the memo's own field names: `permission_status` ("granted" |
/// "denied") and `network_type` ("wifi" | "cellular" | "none"), beside the service's shorter
/// `permission` and `network`. A phone written to the memo must not have its permission read as
/// granted because the server did not know the name (the reason beside the status would then
/// say `none` for a revoked permission). Pure parsing: no store, no PostgreSQL.
@Suite struct MemoTelemetryTests {
    static func batch(_ telemetry: String) throws(RequestError) -> LocationBatch {
        let body = """
            {"responder": 17, "fixes": [{"seq": 1, "t": 100, "lat": 60.17, "lon": 24.94, "acc": 5, "duty": "on_duty"}],
             "telemetry": \(telemetry)}
            """
        return try LocationBatch(body: Array(body.utf8))
    }

    @Test func theMemosFieldNamesAreRead() throws {
        let memo = try Self.batch(
            #"{"permission_status": "denied", "location_services": true, "power_mode": "normal", "app_state": "background", "queue_depth": 5, "network_type": "none"}"#
        )
        let t = try #require(memo.telemetry)
        #expect(t.permission == .denied)
        #expect(t.network == NetworkType.none)
        #expect(t.queueDepth == 5)
        #expect(TrackingReason(t) == .permissionRevoked)
        let granted = try #require(try Self.batch(#"{"permission_status": "granted", "network_type": "wifi"}"#).telemetry)
        #expect(granted.permission == .always && granted.network == .wifi)
        // The service's names still work; the two names of one field must agree.
        let short = try #require(try Self.batch(#"{"permission": "denied", "network": "cellular"}"#).telemetry)
        #expect(short.permission == .denied && short.network == .cellular)
        #expect(throws: RequestError(400, field: "telemetry.permission_status", "says 'granted' but permission says 'denied'")) {
            try Self.batch(#"{"permission": "denied", "permission_status": "granted"}"#)
        }
        #expect(throws: RequestError.self) { try Self.batch(#"{"network_type": "satellite"}"#) }
    }
}
