import Testing
@testable import Responders

/// The audit of the Responders memo against the code (docs/RESPONDERS.md, "Audit").
@Suite struct RespondersAuditTests {
    /// The memo's "UX Signals to Responder", word for word: Green "Location tracking active",
    /// Yellow "Connectivity degraded — you may miss assignments", Red "Location permission
    /// required".
    @Test func theSignalsSayTheMemosWords() {
        #expect(TrackingSignal.green.message == "Location tracking active")
        #expect(TrackingSignal.yellow.message == "Connectivity degraded — you may miss assignments")
        #expect(TrackingSignal.red.message == "Location permission required")
    }
}
